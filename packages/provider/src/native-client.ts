/** Typed client of the native bank-session service: one method per endpoint, no retries. */
import { NATIVE_SUCCESS_CODES } from './codes.js';
import { checkRequest, createTransport, type CallOptions, type ClientOptions } from './http.js';
import * as n from './native.js';

export type NativeClientOptions = ClientOptions;

export function createNativeClient(opts: NativeClientOptions) {
  const t = createTransport('native', opts);
  const post = <S extends Parameters<typeof t.call>[0]['schema']>(endpoint: string, path: string, schema: S, body: unknown, call?: CallOptions) =>
    t.call({ endpoint, method: 'POST', path, body, schema, okCodes: NATIVE_SUCCESS_CODES, signal: call?.signal });

  return {
    /** 1. `banks/list`: the bank groups with their banks, login types and fields. */
    banksList: async (call?: CallOptions) => post('banks/list', '/banks/list', n.banksListResponse, {}, call),
    /** 2. `login`: 200 opens a session; 229 asks for a second login. */
    login: async (req: n.LoginRequest, call?: CallOptions) => post('login', '/login', n.loginResponse, checkRequest(n.loginRequest, 'login', req), call),
    /** 3. `secondlogin`: only after a 229 from login. */
    secondLogin: async (req: n.SecondLoginRequest, call?: CallOptions) =>
      post('secondlogin', '/secondlogin', n.secondLoginResponse, checkRequest(n.secondLoginRequest, 'secondlogin', req), call),
    /** 4. `accounts/list`: `contractId` only for multi-contract banks. */
    accountsList: async (req: n.AccountsRequest, call?: CallOptions) =>
      post('accounts/list', '/accounts/list', n.accountsResponse, checkRequest(n.accountsRequest, 'accounts/list', req), call),
    /** 5. `transfer/init`: 228 with the validations the bank asks for. */
    transferInit: async (req: n.TransferInitRequest, call?: CallOptions) =>
      post('transfer/init', '/transfer/init', n.transferResponse, checkRequest(n.transferInitRequest, 'transfer/init', req), call),
    /** 6. `transfer/validate`: 200 done, 228 a further round. */
    transferValidate: async (req: n.TransferValidateRequest, call?: CallOptions) =>
      post('transfer/validate', '/transfer/validate', n.transferResponse, checkRequest(n.transferValidateRequest, 'transfer/validate', req), call),
  };
}

export type NativeClient = ReturnType<typeof createNativeClient>;
