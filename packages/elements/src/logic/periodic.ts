/**
 * The periodic payment's choices and rules: banks shown by the payment-link service's grouping
 * rule, what the payer's choices leave selected, frequency labels, the date rules of the
 * periodic signer, each field's error, and the sentence that says when the payment runs. Pure
 * functions.
 */
import { isIsoDate, PROVIDER_TIME_ZONE, type PeriodicBankView, type PeriodicBody } from '@bank-checkout/contract';
import type { MessageKey, MessageParams } from '../i18n/index.js';
import { enPeriodic } from '../i18n/en-periodic.js';
import type { FieldError } from './validators.js';
import { compactIban, validateIban } from './iban.js';

/** One entry of the bank list: a bank on its own, or a group shown once by its name. */
export interface PeriodicChoice {
  /** `bank:<bankId>` or `group:<groupId>`. */
  key: string;
  name: string;
  /** The bank, or the group's banks (sorted by name). */
  banks: PeriodicBankView[];
  group: boolean;
  /** The bank is operational, or the group has an operational bank. */
  enabled: boolean;
}

/**
 * The bank list by the grouping rule: banks with a group are hidden behind one entry named
 * after the group (a second choice then picks the bank); the others stand alone. Sorted by
 * name in `locale`; entries with no operational bank stay listed, marked not enabled.
 */
export function periodicChoices(banks: readonly PeriodicBankView[], locale: string): PeriodicChoice[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  const byName = (a: { name: string }, b: { name: string }) => collator.compare(a.name, b.name);
  const groups = new Map<number, PeriodicChoice>();
  const out: PeriodicChoice[] = [];
  for (const bank of banks) {
    if (bank.groupId === null) {
      out.push({ key: `bank:${bank.bankId}`, name: bank.name, banks: [bank], group: false, enabled: bank.enabled });
      continue;
    }
    let g = groups.get(bank.groupId);
    if (!g) {
      g = { key: `group:${bank.groupId}`, name: bank.groupName ?? bank.name, banks: [], group: true, enabled: false };
      groups.set(bank.groupId, g);
      out.push(g);
    }
    g.banks.push(bank);
    g.enabled ||= bank.enabled;
  }
  for (const g of groups.values()) g.banks.sort(byName);
  return out.sort(byName);
}

/** The message key of a frequency code (`Monthly` → `frequency.Monthly`), null for a code without one. */
export function frequencyKey(code: string): MessageKey | null {
  const key = `frequency.${code}`;
  return Object.hasOwn(enPeriodic, key) ? (key as MessageKey) : null;
}

/** The calendar date (`YYYY-MM-DD`) at `now` in `timeZone` (the device's when absent). */
export function isoDateAt(now: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...(timeZone ? { timeZone } : {}) }).format(now);
}

/** `iso` plus `days` calendar days. */
export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The earliest start date: the day after today, today being the later of the device's date and
 * the service's (so the service never finds the date in the past).
 */
export function firstStartDate(now: number): string {
  const local = isoDateAt(now);
  const provider = isoDateAt(now, PROVIDER_TIME_ZONE);
  return addDays(local > provider ? local : provider, 1);
}

/** The start date: required, a real date, not before `first`. */
export function validateStartDate(value: string, first: string): FieldError | null {
  if (value === '') return { key: 'periodic.startRequired' };
  if (!isIsoDate(value)) return { key: 'periodic.dateInvalid' };
  return value < first ? { key: 'periodic.startAfterToday' } : null;
}

/** The optional end date: a real date after the start date. */
export function validateEndDate(value: string, start: string): FieldError | null {
  if (value === '') return null;
  if (!isIsoDate(value)) return { key: 'periodic.dateInvalid' };
  return isIsoDate(start) && value <= start ? { key: 'periodic.endAfterStart' } : null;
}

/**
 * When the payment runs, as a message: weekly on the start date's weekday; monthly and
 * quarterly on its day of the month; yearly on its day and month. Null for an unknown frequency
 * or a date that is not one.
 */
export function describeSchedule(frequency: string, startDate: string, locale: string): { key: MessageKey; params: MessageParams } | null {
  if (!isIsoDate(startDate)) return null;
  const date = new Date(`${startDate}T00:00:00Z`);
  const format = (opts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { ...opts, timeZone: 'UTC' }).format(date);
  const day = date.getUTCDate();
  switch (frequency) {
    case 'Weekly':
      return { key: 'periodic.scheduleWeekly', params: { weekday: format({ weekday: 'long' }) } };
    case 'Monthly':
      return { key: 'periodic.scheduleMonthly', params: { day } };
    case 'Quarterly':
      return { key: 'periodic.scheduleQuarterly', params: { day } };
    case 'Yearly':
      return { key: 'periodic.scheduleYearly', params: { date: format({ day: 'numeric', month: 'long' }) } };
    default:
      return null;
  }
}

/** The periodic form's fields, in the order the payer meets them. */
export type PeriodicField = 'bank' | 'groupBank' | 'frequency' | 'iban' | 'start' | 'end';

/** Each field's element id, in the order the payer meets them (the first invalid one takes focus). */
export const PERIODIC_FIELD_IDS: Readonly<Record<PeriodicField, string>> = {
  bank: 'pf-bank',
  groupBank: 'pf-group-bank',
  frequency: 'pf-frequency',
  iban: 'pf-iban',
  start: 'pf-start',
  end: 'pf-end',
};

/** What the payer chose: an entry of the bank list, a bank of it, and a frequency ('' for none). */
export interface PeriodicSelection {
  entryKey: string;
  bankId: string;
  frequency: string;
}

/** The chosen entry, when it is still listed and operational. */
export const chosenEntry = (choices: readonly PeriodicChoice[], key: string): PeriodicChoice | undefined => choices.find((c) => c.key === key && c.enabled);

/** The chosen bank, when it is still in the entry and operational. */
export const chosenBank = (entry: PeriodicChoice | undefined, bankId: string): PeriodicBankView | undefined =>
  entry?.banks.find((b) => b.bankId === bankId && b.enabled);

/** The selection with what is no longer listed or operational dropped (the bank list may change). */
export function keepSelection(choices: readonly PeriodicChoice[], s: PeriodicSelection): PeriodicSelection {
  const entry = chosenEntry(choices, s.entryKey);
  const bank = chosenBank(entry, s.bankId);
  return { entryKey: entry ? s.entryKey : '', bankId: bank ? s.bankId : '', frequency: bank?.frequencies.includes(s.frequency) ? s.frequency : '' };
}

/**
 * The selection after choosing bank `bankId` of the chosen entry: the frequency stays when the
 * bank offers it, else it is the bank's only one, else none.
 */
export function selectBank(choices: readonly PeriodicChoice[], s: PeriodicSelection, bankId: string): PeriodicSelection {
  const frequencies = chosenEntry(choices, s.entryKey)?.banks.find((b) => b.bankId === bankId)?.frequencies ?? [];
  const frequency = frequencies.includes(s.frequency) ? s.frequency : frequencies.length === 1 ? frequencies[0]! : '';
  return { ...s, bankId, frequency };
}

/** The selection after choosing entry `key` of the bank list: an entry of one operational bank chooses that bank. */
export function selectEntry(choices: readonly PeriodicChoice[], s: PeriodicSelection, key: string): PeriodicSelection {
  const banks = chosenEntry(choices, key)?.banks;
  const only = banks?.length === 1 && banks[0]!.enabled ? banks[0]!.bankId : '';
  return selectBank(choices, { ...s, entryKey: key }, only);
}

/** What the form holds, for its errors. */
export interface PeriodicForm extends PeriodicSelection {
  /** The payer's IBAN as typed or shown. */
  iban: string;
  startDate: string;
  endDate: string;
}

/**
 * Each field's error (null when it is fine): a bank (and a bank of its group), a frequency, a
 * valid IBAN that is not the payee's own account, a start from `first`, an end after the start.
 */
export function periodicErrors(
  choices: readonly PeriodicChoice[],
  f: PeriodicForm,
  first: string,
  payeeIban: string | null | undefined,
): Record<PeriodicField, FieldError | null> {
  const entry = chosenEntry(choices, f.entryKey);
  const bank = chosenBank(entry, f.bankId);
  const iban = compactIban(f.iban);
  return {
    bank: entry ? null : { key: 'periodic.bankRequired' },
    groupBank: entry?.group && !bank ? { key: 'periodic.bankRequired' } : null,
    frequency: bank && !f.frequency ? { key: 'periodic.frequencyRequired' } : null,
    iban: validateIban(iban) ?? (payeeIban && iban === compactIban(payeeIban) ? { key: 'iban.payee' } : null),
    start: validateStartDate(f.startDate, first),
    end: validateEndDate(f.endDate, f.startDate),
  };
}

/** The first field with an error, in the order the payer meets them. */
export const firstInvalid = (errors: Record<PeriodicField, FieldError | null>): PeriodicField | undefined =>
  (Object.keys(PERIODIC_FIELD_IDS) as PeriodicField[]).find((f) => errors[f]);

/** The earliest end date offered: the day after the start (or after `first` while the start is not a valid one). */
export const firstEndDate = (start: string, first: string): string => addDays(isIsoDate(start) && start >= first ? start : first, 1);

/** The order a valid form sends: the IBAN compacted, the end date only when given. */
export const periodicOrder = (f: PeriodicForm): PeriodicBody => ({
  bankId: f.bankId,
  frequency: f.frequency,
  debtorAccount: compactIban(f.iban),
  startDate: f.startDate,
  ...(f.endDate ? { endDate: f.endDate } : {}),
});
