/**
 * The banks of the payment-link service (`GET /<env>/banks`) and the rules the simulator
 * applies to them: which allow periodic payments and with which frequencies, which belong to
 * a group, which are not operational, and which ask for an additional login key at the
 * simulated bank interface.
 */
import type { LinkBank } from '@bank-checkout/provider';
import { ibanCheckDigits } from '@bank-checkout/contract';

/** Value the simulated banks that ask for an additional login key accept (the spec's sandbox rule). */
export const LINK_BANK_LOGIN_KEY = 'user1';

/** Every frequency a catalogue bank accepts for periodic payments. */
export const PERIODIC_FREQUENCIES = ['Weekly', 'Monthly', 'Quarterly', 'Yearly'] as const;
export type PeriodicFrequency = (typeof PERIODIC_FREQUENCIES)[number];

interface CatalogueEntry {
  bank: LinkBank;
  /** The bank interface asks for an additional login key (`user1` in the sandbox). */
  asksLoginKey: boolean;
}

const bank = (
  bankId: string,
  name: string,
  country: string,
  bankCodes: string[],
  opts: { enabled?: 0 | 1; frequencies?: PeriodicFrequency[]; group?: [number, string]; asksLoginKey?: boolean } = {},
): CatalogueEntry => ({
  bank: {
    bankId,
    name,
    bankCodes,
    country,
    enabled: opts.enabled ?? 1,
    enabledPeriodicPayment: opts.frequencies ? 1 : 0,
    frequencyPeriodicPayment: opts.frequencies ?? [],
    ...(opts.group ? { bankGroupId: opts.group[0], bankGroupName: opts.group[1] } : {}),
  },
  asksLoginKey: opts.asksLoginKey ?? false,
});

const AURORA: [number, string] = [10, 'Grupo Aurora'];
const CANTABRICO: [number, string] = [20, 'Grupo Cantábrico'];

const CATALOGUE: CatalogueEntry[] = [
  bank('es-aurora', 'Banco Aurora', 'ES', ['0101'], { frequencies: ['Monthly', 'Quarterly', 'Yearly'], group: AURORA }),
  bank('es-aurora-empresas', 'Banco Aurora · Empresas', 'ES', ['0102'], { group: AURORA, asksLoginKey: true }),
  bank('es-levante', 'Caja Levante', 'ES', ['0201'], { frequencies: ['Monthly'] }),
  bank('es-cantabrico', 'Banco Cantábrico', 'ES', ['0301'], {
    frequencies: ['Weekly', 'Monthly', 'Quarterly', 'Yearly'],
    group: CANTABRICO,
    asksLoginKey: true,
  }),
  bank('es-cantabrico-rural', 'Rural Cantábrico', 'ES', ['0302', '0303'], { group: CANTABRICO }),
  bank('es-cantabrico-privada', 'Cantábrico Banca Privada', 'ES', ['0304'], { group: CANTABRICO, enabled: 0 }),
  bank('es-meridiano', 'Banco Meridiano', 'ES', ['0401']),
  bank('es-sur', 'Caja del Sur', 'ES', ['0501'], { frequencies: ['Monthly', 'Yearly'] }),
  bank('es-norte', 'Banco del Norte', 'ES', ['0601'], { frequencies: ['Monthly'], enabled: 0 }),
  bank('es-islas', 'Banca Islas', 'ES', ['0701', '0702'], { asksLoginKey: true }),
  bank('pt-atlantico', 'Banco Atlântico', 'PT', ['0033'], { frequencies: ['Monthly'] }),
  bank('pt-douro', 'Caixa Douro', 'PT', ['0035']),
  bank('pt-tejo', 'Banco Tejo', 'PT', ['0036'], { enabled: 0 }),
];

/** The link banks exactly as `GET /<env>/banks` returns them (without filters). */
export const LINK_BANKS: readonly LinkBank[] = CATALOGUE.map((e) => e.bank);

const BY_ID = new Map(CATALOGUE.map((e) => [e.bank.bankId, e]));

export function findLinkBank(bankId: string): LinkBank | undefined {
  return BY_ID.get(bankId)?.bank;
}

/** True when the bank interface of `bankId` asks for the additional login key. */
export function asksLoginKey(bankId: string): boolean {
  return BY_ID.get(bankId)?.asksLoginKey ?? false;
}

export interface BankFilter {
  enabled?: '0' | '1';
  enabledPeriodicPayment?: '0' | '1';
  country?: string;
}

/** The banks that match every filter given (country compared without case). */
export function filterLinkBanks(filter: BankFilter): LinkBank[] {
  const country = filter.country?.toUpperCase();
  return LINK_BANKS.filter(
    (b) =>
      (filter.enabled === undefined || b.enabled === Number(filter.enabled)) &&
      (filter.enabledPeriodicPayment === undefined || (b.enabledPeriodicPayment ?? 0) === Number(filter.enabledPeriodicPayment)) &&
      (country === undefined || b.country === country),
  );
}

/** Operational banks that allow periodic payments with `frequency`. */
export function periodicBanksFor(frequency: string): LinkBank[] {
  return LINK_BANKS.filter((b) => b.enabled === 1 && b.enabledPeriodicPayment === 1 && (b.frequencyPeriodicPayment ?? []).includes(frequency));
}

/** Frequencies accepted by at least one operational periodic bank. */
function acceptedFrequencies(): string[] {
  const all = new Set(LINK_BANKS.filter((b) => b.enabled === 1).flatMap((b) => b.frequencyPeriodicPayment ?? []));
  return PERIODIC_FREQUENCIES.filter((f) => all.has(f));
}

/**
 * Why a periodic order may not use `bankIdSelected` with `frequency` (null when it may).
 * Without a bank, the frequency must be one that some operational periodic bank accepts.
 */
export function periodicBankIssue(bankIdSelected: string | undefined, frequency: string): { field: string; message: string } | null {
  if (bankIdSelected === undefined) {
    if (periodicBanksFor(frequency).length > 0) return null;
    return { field: 'frequency', message: `must be one of ${acceptedFrequencies().join(', ')} (the frequencies the periodic-payment banks accept)` };
  }
  const b = findLinkBank(bankIdSelected);
  if (!b) return { field: 'bankIdSelected', message: `unknown bank '${bankIdSelected}'; see GET banks` };
  if (b.enabledPeriodicPayment !== 1) return { field: 'bankIdSelected', message: `bank '${b.bankId}' does not allow periodic payments` };
  if (b.enabled !== 1) return { field: 'bankIdSelected', message: `bank '${b.bankId}' is not operational at the moment` };
  const freqs = b.frequencyPeriodicPayment ?? [];
  if (!freqs.includes(frequency)) return { field: 'frequency', message: `must be one of ${freqs.join(', ')} (the frequencies bank '${b.bankId}' accepts)` };
  return null;
}

/** Options of a bank selector: banks without a group, then one entry per group (grouping rule). */
export type SelectorEntry = { type: 'bank'; bank: LinkBank } | { type: 'group'; id: number; name: string; banks: LinkBank[] };

export function selectorEntries(banks: LinkBank[]): SelectorEntry[] {
  const entries: SelectorEntry[] = [];
  const groups = new Map<number, Extract<SelectorEntry, { type: 'group' }>>();
  for (const b of banks) {
    if (b.bankGroupId == null) {
      entries.push({ type: 'bank', bank: b });
      continue;
    }
    let g = groups.get(b.bankGroupId);
    if (!g) {
      g = { type: 'group', id: b.bankGroupId, name: b.bankGroupName ?? `Group ${b.bankGroupId}`, banks: [] };
      groups.set(b.bankGroupId, g);
      entries.push(g);
    }
    g.banks.push(b);
  }
  return entries;
}

/**
 * The test payer's account at a bank (holder and IBAN recorded in the transaction): an account of
 * that bank, as a real payer's is, its IBAN carrying the bank's first code where an IBAN carries
 * the bank (the four digits after the check digits, in Spain and Portugal). A bank the catalogue
 * does not know gets the one Spanish account of before.
 */
export function testPayer(bankId: string): { holder: string; account: string } {
  const bank = findLinkBank(bankId);
  const code = bank?.bankCodes?.[0];
  const country = bank?.country === 'PT' ? 'PT' : 'ES';
  if (!code || !/^\d{4}$/.test(code)) return { holder: 'Cliente de Pruebas', account: 'ES6000491500051234567892' };
  const bban = country === 'PT' ? `${code}01231234567890154` : `${code}1500051234567892`;
  return { holder: 'Cliente de Pruebas', account: `${country}${ibanCheckDigits(country, bban)}${bban}` };
}
