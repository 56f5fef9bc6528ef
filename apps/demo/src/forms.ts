/**
 * The console's forms, described once: every field of the payment-link service's simple
 * signer, periodic signer and periodic cancellation (spec limits as HTML constraints), how a
 * posted form becomes the JSON body the BFF expects, and how the BFF's `issues` come back next
 * to the fields they name.
 */
import { LIMITS } from '@bank-checkout/provider';
import { flag, html, type SafeHtml } from './html.js';
import type { ApiErrorBody, ApiIssue } from './merchant.js';

export type FieldKind = 'text' | 'textarea' | 'money' | 'integer' | 'url' | 'iban' | 'date' | 'select';

export interface FieldDef {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  /** An HTML `pattern` (the browser compiles it with the `v` flag). */
  pattern?: string;
  hint?: string;
  options?: { value: string; label: string }[];
  /** Where the field is shown: the main group or the optional details. */
  group?: 'main' | 'return' | 'more';
}

export interface FormDef {
  id: string;
  title: string;
  submit: string;
  fields: FieldDef[];
  /** Values carried along in hidden inputs for the console itself; never sent to the BFF. */
  hidden?: string[];
}

const expireMinutes: FieldDef = {
  name: 'expireMinutes',
  label: 'Valid for (minutes)',
  kind: 'integer',
  min: 1,
  max: LIMITS.expireMinutesMax,
  hint: `Default ${LIMITS.expireMinutesDefault}; at most ${LIMITS.expireMinutesMax} (180 days).`,
  group: 'more',
};
const customData: FieldDef = {
  name: 'customData',
  label: 'Custom data',
  kind: 'textarea',
  maxLength: LIMITS.customData,
  hint: `Returned in the result notification; a JSON object's fields show in the provider's dashboard. At most ${LIMITS.customData} characters.`,
  group: 'more',
};
const partnerId: FieldDef = { name: 'partnerId', label: 'Partner id', kind: 'text', maxLength: 64, hint: 'Only for specific integrators.', group: 'more' };
const holderDestiny: FieldDef = {
  name: 'holderDestiny',
  label: 'Beneficiary holder',
  kind: 'text',
  maxLength: 140,
  hint: 'Only for specific integrators; empty: the holder of your account.',
  group: 'more',
};
const accountDestiny: FieldDef = {
  name: 'accountDestiny',
  label: 'Beneficiary IBAN',
  kind: 'iban',
  hint: "Must be validated in the provider's dashboard first; empty: your own account.",
  group: 'more',
};
const urlOk: FieldDef = { name: 'urlOk', label: 'Return address on success (urlOk)', kind: 'url', group: 'return' };
const urlError: FieldDef = { name: 'urlError', label: 'Return address otherwise (urlError)', kind: 'url', group: 'return' };
const reference = (label = 'Reference'): FieldDef => ({
  name: 'reference',
  label,
  kind: 'text',
  required: true,
  maxLength: LIMITS.reference,
  hint: `Your own id for this payment; at most ${LIMITS.reference} characters.`,
  group: 'main',
});
const amount: FieldDef = { name: 'amount', label: 'Amount (€)', kind: 'money', required: true, hint: 'In euros, such as 12.50 (sent in cents).', group: 'main' };

export const LINK_FORM: FormDef = {
  id: 'link',
  title: 'New payment link',
  submit: 'Create payment link',
  fields: [
    { name: 'subject', label: 'Subject', kind: 'text', required: true, maxLength: LIMITS.subject, hint: `Shown in the payment and the bank statement; at most ${LIMITS.subject} characters.`, group: 'main' },
    amount,
    reference(),
    {
      name: 'customRecipient',
      label: 'Text for the payer',
      kind: 'textarea',
      maxLength: LIMITS.customRecipient,
      hint: `Shown in the gateway's summary; a ";" starts a new line. At most ${LIMITS.customRecipient} characters.`,
      group: 'main',
    },
    expireMinutes,
    urlOk,
    urlError,
    customData,
    holderDestiny,
    accountDestiny,
    partnerId,
  ],
};

export const FREQUENCIES = ['Weekly', 'Monthly', 'Quarterly', 'Yearly'];

export function periodicForm(opts: { banks: { bankId: string; name: string; frequencies: string[] }[]; tomorrow: string }): FormDef {
  return {
    id: 'periodic',
    title: 'New periodic payment link',
    submit: 'Create periodic link',
    fields: [
      {
        name: 'subject',
        label: 'Subject',
        kind: 'text',
        required: true,
        maxLength: LIMITS.subject,
        pattern: '[\\p{L}\\p{N} \\-]+',
        hint: `Letters, digits, spaces and hyphens only; at most ${LIMITS.subject} characters.`,
        group: 'main',
      },
      { ...amount, label: 'Amount of each payment (€)' },
      reference(),
      {
        name: 'bankIdSelected',
        label: "Payer's bank",
        kind: 'select',
        options: [
          { value: '', label: 'Let the payer choose' },
          ...opts.banks.map((b) => ({ value: b.bankId, label: `${b.name} (${b.frequencies.join(', ')})` })),
        ],
        hint: 'Only banks that allow periodic payments; the frequency must be one the bank offers.',
        group: 'main',
      },
      {
        name: 'frequency',
        label: 'Frequency',
        kind: 'select',
        required: true,
        options: FREQUENCIES.map((f) => ({ value: f, label: f })),
        group: 'main',
      },
      { name: 'debtorAccount', label: "Payer's IBAN (debtor)", kind: 'iban', required: true, hint: 'The account the payer authorises the order from.', group: 'main' },
      { name: 'startDate', label: 'First payment', kind: 'date', required: true, min: opts.tomorrow, hint: 'After today; monthly payments fall on this day of the month.', group: 'main' },
      { name: 'endDate', label: 'Last payment', kind: 'date', min: opts.tomorrow, hint: 'Empty: until cancelled.', group: 'main' },
      urlOk,
      urlError,
      expireMinutes,
      customData,
      holderDestiny,
      accountDestiny,
      partnerId,
    ],
  };
}

export const CANCEL_FORM: FormDef = {
  id: 'cancel',
  title: 'Cancel a periodic order',
  submit: 'Create cancellation link',
  /** The periodic order being cancelled, so the console can show it cancelled once authorised. */
  hidden: ['order'],
  fields: [
    {
      name: 'transactionId',
      label: 'Transaction id of the authorisation',
      kind: 'text',
      required: true,
      maxLength: 128,
      hint: 'Received in the notification when the payer authorised the periodic order.',
      group: 'main',
    },
    reference('Reference of the cancellation'),
    urlOk,
    urlError,
    expireMinutes,
    customData,
    partnerId,
  ],
};

export type FormValues = Record<string, string>;
export type FieldErrors = Record<string, string[]>;

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
    else if (issue.path === 'providerCode') form.push(`${error.message} Check the destination (it must be validated in the provider's dashboard) and the dates.`);
    else form.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
  if (!issues.length) form.push(error.message);
  return { fields, form };
}

function control(form: string, f: FieldDef, value: string, described: string, invalid: boolean): SafeHtml {
  const id = `${form}-${f.name}`;
  const common = html` id="${id}" name="${f.name}"${flag(f.required, 'required')}${described ? html` aria-describedby="${described}"` : ''}${
    invalid ? html` aria-invalid="true"` : ''
  }`;
  switch (f.kind) {
    case 'textarea':
      return html`<textarea${common} rows="3"${f.maxLength ? html` maxlength="${f.maxLength}"` : ''}>${value}</textarea>`;
    case 'select':
      return html`<select${common}>${(f.options ?? []).map((o) => html`<option value="${o.value}"${flag(o.value === value, 'selected')}>${o.label}</option>`)}</select>`;
    default: {
      const attrs: Record<FieldKind, SafeHtml> = {
        text: html` type="text"`,
        textarea: html``,
        select: html``,
        money: html` type="text" inputmode="decimal" pattern="\\d{1,9}([.,]\\d{1,2})?" autocomplete="off"`,
        integer: html` type="number" inputmode="numeric" step="1"`,
        url: html` type="url" placeholder="https://shop.example/thanks"`,
        iban: html` type="text" autocomplete="off" spellcheck="false" pattern="[A-Za-z]{2}\\d{2}[A-Za-z0-9 ]{11,40}" placeholder="ES91 2100 0418 4502 0005 1332"`,
        date: html` type="date"`,
      };
      return html`<input${common}${attrs[f.kind]} value="${value}"${f.maxLength ? html` maxlength="${f.maxLength}"` : ''}${
        f.min !== undefined ? html` min="${f.min}"` : ''
      }${f.max !== undefined ? html` max="${f.max}"` : ''}${f.pattern ? html` pattern="${f.pattern}"` : ''}>`;
    }
  }
}

export function renderField(form: string, f: FieldDef, value: string, errors: string[] = []): SafeHtml {
  const id = `${form}-${f.name}`;
  const described = [f.hint ? `${id}-hint` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${errors.length ? ' invalid' : ''}">
    <label for="${id}">${f.label}${f.required ? html` <span class="req" aria-hidden="true">*</span>` : ''}</label>
    ${control(form, f, value, described, errors.length > 0)}
    ${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
    ${errors.length ? html`<p class="error" id="${id}-error">${errors.join(' ')}</p>` : ''}
  </div>`;
}

/** The whole form; `notifUrl` is shown, not sent: the BFF sets `urlNotif` to itself. */
export function renderForm(
  def: FormDef,
  opts: { action: string; values: FormValues; errors?: FieldErrors; formErrors?: string[]; notifUrl: string },
): SafeHtml {
  const inGroup = (g: FieldDef['group']) => def.fields.filter((f) => (f.group ?? 'main') === g);
  const group = (g: FieldDef['group']) => inGroup(g).map((f) => renderField(def.id, f, opts.values[f.name] ?? '', opts.errors?.[f.name]));
  const moreOpen = inGroup('more').some((f) => Boolean(opts.values[f.name]?.trim()) || Boolean(opts.errors?.[f.name]));
  const formErrors = opts.formErrors ?? [];
  const count = Object.keys(opts.errors ?? {}).length + formErrors.length;
  return html`<form method="post" action="${opts.action}" class="console-form" id="${def.id}-form">
    ${(def.hidden ?? []).map((name) => html`<input type="hidden" name="${name}" value="${opts.values[name] ?? ''}">`)}
    ${count
      ? html`<div class="flash error" role="alert" tabindex="-1" id="${def.id}-errors" autofocus>
          <p>${count === 1 ? 'One thing needs fixing' : 'Some things need fixing'} before the link can be created.</p>
          ${formErrors.length ? html`<ul>${formErrors.map((e) => html`<li>${e}</li>`)}</ul>` : ''}
        </div>`
      : ''}
    <p class="hint"><span aria-hidden="true">*</span> Required.</p>
    <fieldset><legend>Payment</legend>${group('main')}</fieldset>
    <fieldset><legend>Return addresses</legend>${group('return')}
      <div class="field">
        <label for="${def.id}-urlNotif">Result notifications (urlNotif)</label>
        <input id="${def.id}-urlNotif" type="url" value="${opts.notifUrl}" readonly aria-describedby="${def.id}-urlNotif-hint">
        <p class="hint" id="${def.id}-urlNotif-hint">Set by the BFF to itself: it verifies each signed notification and forwards it to this console.</p>
      </div>
    </fieldset>
    <details${flag(moreOpen, 'open')}>
      <summary>More options</summary>
      ${group('more')}
    </details>
    <button type="submit" class="primary">${def.submit}</button>
  </form>`;
}
