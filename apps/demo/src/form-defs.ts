/**
 * The console's forms, described once: every field of the payment-link service's simple
 * signer, periodic signer and periodic cancellation, with the spec's limits as HTML
 * constraints.
 */
import { LIMITS } from '@bank-checkout/provider';

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
const amount: FieldDef = {
  name: 'amount',
  label: 'Amount (€)',
  kind: 'money',
  required: true,
  hint: 'In euros, such as 12.50 (sent in cents).',
  group: 'main',
};

export const LINK_FORM: FormDef = {
  id: 'link',
  title: 'New payment link',
  submit: 'Create payment link',
  fields: [
    {
      name: 'subject',
      label: 'Subject',
      kind: 'text',
      required: true,
      maxLength: LIMITS.subject,
      hint: `Shown in the payment and the bank statement; at most ${LIMITS.subject} characters.`,
      group: 'main',
    },
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
      {
        name: 'debtorAccount',
        label: "Payer's IBAN (debtor)",
        kind: 'iban',
        required: true,
        hint: 'The account the payer authorises the order from.',
        group: 'main',
      },
      {
        name: 'startDate',
        label: 'First payment',
        kind: 'date',
        required: true,
        min: opts.tomorrow,
        hint: 'After today; monthly payments fall on this day of the month.',
        group: 'main',
      },
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
