/** This package's version (package.json's; a test keeps the two equal): the OpenAPI document's `info.version`. */
export const BFF_VERSION = '0.1.0';
