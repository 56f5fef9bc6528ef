export declare const DOC_BFF: string;
export declare function docPolicy(kind: 'isolated' | 'inline', bff?: string): string;
