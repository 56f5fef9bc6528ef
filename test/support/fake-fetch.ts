/**
 * What a fake `fetch` reads of the call it gets: the address, whichever form the caller gave it
 * in, and the body as text. The code under test sends text (JSON) and forms; any other body is a
 * surprise the fake says aloud rather than reading as "[object …]".
 */
export const urlOf = (input: RequestInfo | URL): string => (input instanceof Request ? input.url : input.toString());

export function bodyText(body: BodyInit | null | undefined): string {
  if (body === null || body === undefined) return '';
  if (typeof body === 'string' || body instanceof URLSearchParams) return body.toString();
  throw new TypeError(`a fake fetch reads text and form bodies only, not ${Object.prototype.toString.call(body)}`);
}
