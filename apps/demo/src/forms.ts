/**
 * The console's forms as data: how a posted form becomes the JSON body the BFF expects, and how
 * the BFF's `issues` come back next to the fields they name. The definitions are in
 * `form-defs.ts`, the markup in `form-views.ts`.
 */
import type { FieldErrors, FormDef, FormValues } from './form-defs.js';
import type { ApiErrorBody, ApiIssue } from './merchant.js';

export * from './form-defs.js';
export { renderField, renderForm } from './form-views.js';

/** Reads a posted form into the BFF's JSON body; fields left empty are not sent. */
export function toBody(def: FormDef, values: FormValues): { body: Record<string, unknown>; errors: FieldErrors } {
  const body: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const f of def.fields) {
    const raw = (values[f.name] ?? '').trim();
    if (raw === '') continue;
    if (f.kind === 'money') {
      const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(raw);
      if (m) body[f.name] = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
      else errors[f.name] = ['Write an amount in euros, such as 12.50.'];
    } else if (f.kind === 'integer') {
      if (/^\d{1,9}$/.test(raw)) body[f.name] = Number(raw);
      else errors[f.name] = ['Write a whole number.'];
    } else if (f.kind === 'iban') {
      body[f.name] = raw.replace(/\s+/g, '').toUpperCase();
    } else {
      body[f.name] = raw;
    }
  }
  return { body, errors };
}

/** Puts each BFF issue next to the field it names; the rest are the form's own errors. */
export function issuesByField(def: FormDef, error: ApiErrorBody): { fields: FieldErrors; form: string[] } {
  const fields: FieldErrors = {};
  const form: string[] = [];
  const issues: ApiIssue[] = error.issues ?? [];
  for (const issue of issues) {
    const name = issue.path.split('.')[0] ?? '';
    if (def.fields.some((f) => f.name === name)) (fields[name] ??= []).push(issue.message);
    else if (issue.path === 'providerCode')
      form.push(`${error.message} Check the destination (it must be validated in the provider's dashboard) and the dates.`);
    else form.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
  if (!issues.length) form.push(error.message);
  return { fields, form };
}
