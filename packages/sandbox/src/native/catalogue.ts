/**
 * The simulated banks of the native service and the test inputs that reach every answer.
 *
 * `NATIVE_BANKS` is exactly what `banks/list` returns. Each bank also has a behaviour that
 * the list does not show (second login, contracts, accounts, validation rounds); it lives in
 * `SIM_BANKS`. Everything here is immutable: the simulator's mutable state (sessions,
 * transactions) lives in each service instance.
 *
 * A login type's fields stand for the login call's `userId`, `userSecret` and
 * `userExtraField`, in that order, and carry those names as `fieldId`.
 */
import { deepFreeze, VALIDATION_WINDOW_MS, type BankGroup, type NativeErrorCode } from '@bank-checkout/provider';
import { SANDBOX_DEFAULTS } from '../context.js';
import { dniLetter, INDIRECT_SIGNED_VALUE as SIGNED } from '@bank-checkout/contract';
import {
  field,
  dniField,
  cifField,
  pinField,
  passwordField,
  login,
  bank,
  account,
  cif,
  validation,
  sms,
  signature,
  token,
  coordinates,
  type SimBank,
} from './builders.js';

export type { SimAccount, SimBank, ValidationSpec } from './builders.js';

/* ---------- magic values ---------- */

/** Every value with a special meaning in the simulated test environment. */
export const NATIVE_MAGIC = {
  /** At transfer/validate, at every bank and for every validation type: fails with B103. */
  failValidation: '0000',
  /** Type-6 validation: the payer has not signed on the other device yet (answers 228 again). */
  indirectPending: 'PENDING',
  /** Type-6 validation: the payer signed on the other device. */
  indirectSigned: SIGNED,
  /** Login userId (a valid DNI) whose login answers B104 at any active bank, whatever the secret. */
  actionRequiredUserId: `00000104${dniLetter('00000104')}`,
  /** Login userId (a valid DNI) that logs in at any active bank, whatever the secret, and gets B108 at transfer/init. */
  noTransferUserId: `00000108${dniLetter('00000108')}`,
  /** transfer/init above this amount (in cents) answers B102. */
  maxAmountCents: 1_000_000,
} as const;

/** Time to answer all validations of a transfer, from transfer/init (the provider's fact, docs/provider.md). */
export const NATIVE_VALIDATION_DEADLINE_MS = VALIDATION_WINDOW_MS;
/** A session ends after this long without a call (spec: not shown; our choice). */
export const NATIVE_SESSION_IDLE_MS = 15 * 60_000;

/* ---------- the catalogue ---------- */

const AURORA_USER = { dni: `12345678${dniLetter('12345678')}`, pin: '135790' };
const LEVANTE_NIE = `X1234567${dniLetter('01234567')}`;

interface GroupDef {
  group: string;
  name: string;
  banks: SimBank[];
}

const GROUPS: GroupDef[] = [
  {
    group: 'aurora',
    name: 'Grupo Aurora',
    banks: [
      {
        bank: bank('aurora', 0, 'Banco Aurora · Particulares', [
          login('dni', 'DNI y clave', [dniField(AURORA_USER.dni), pinField(AURORA_USER.pin)]),
          login('user', 'Usuario y contraseña', [field('userId', 'Usuario', { min: 6, max: 16 }, 'aurora.demo'), passwordField('Aurora2024')]),
          login(
            'card',
            'Tarjeta y PIN',
            [
              field('userId', 'Número de tarjeta', { min: 16, max: 16, numeric: true }, '4000001234567899'),
              field('userSecret', 'PIN de la tarjeta', { min: 4, max: 4, numeric: true, password: true }, '1357'),
            ],
            false,
          ),
        ]),
        accounts: [
          account('AUR-0001', 'Cuenta Nómina', '90010001120200012345', 254_310),
          account('AUR-0002', 'Cuenta Ahorro (no admite transferencias)', '90010001160300067890', 1_250_000, { refusal: 'B107' }),
          account('AUR-0003', 'Cuenta conjunta mancomunada', '90010001150400024680', 88_000, { refusal: 'B106' }),
          account('AUR-0004', 'Cuenta bloqueada', '90010001110500013579', 0, { refusal: 'B101' }),
          { accountId: 'AUR-0005', name: 'Cuenta de pruebas (IBAN del comercio demo)', iban: SANDBOX_DEFAULTS.merchantIban, balance: 50_000 },
        ],
        rounds: [[sms('482913', '+34 6** *** 412')]],
      },
      {
        bank: bank('aurora-empresas', 1, 'Banco Aurora · Empresas', [
          login('cif', 'CIF, contraseña y código de usuario', [
            cifField(cif('B', '1234567')),
            passwordField('Empresa2024', 8, 20),
            field('userExtraField', 'Código de usuario', { min: 4, max: 6, numeric: true }, '7788'),
          ]),
        ]),
        contracts: [
          { contractId: 'AUE-C01', contractInfo: 'Contrato 0001 · Tesorería' },
          { contractId: 'AUE-C02', contractInfo: 'Contrato 0002 · Nóminas' },
        ],
        accounts: [
          account('AUE-0001', 'Cuenta Operativa', '90010002100100098765', 4_531_220, { contractId: 'AUE-C01' }),
          account('AUE-0002', 'Cuenta mancomunada (firma conjunta)', '90010002190100054321', 920_000, { contractId: 'AUE-C01', refusal: 'B106' }),
          account('AUE-0003', 'Cuenta de Nóminas', '90010002130200011223', 1_200_000, { contractId: 'AUE-C02' }),
        ],
        rounds: [[signature('2580'), token('613579')]],
      },
    ],
  },
  {
    group: 'levante',
    name: 'Caja Levante',
    banks: [
      {
        bank: bank('levante', 0, 'Caja Levante', [login('nif', 'NIF y clave', [dniField(LEVANTE_NIE, 'NIF / NIE'), pinField('246810', 6, 6)])]),
        secondLogin: {
          type: 1,
          value: '+34 6** *** 218',
          field: field('smsCode', 'Código de acceso recibido por SMS', { min: 4, max: 8, numeric: true }, '731904'),
        },
        accounts: [account('LEV-0001', 'Cuenta Corriente', '90020001140100044556', null), account('LEV-0002', 'Cuenta Joven', '90020001180100077889', null)],
        rounds: [[coordinates(2)]],
      },
      {
        bank: bank('levante-empresas', 1, 'Caja Levante · Empresas', [
          login('cif', 'CIF y contraseña', [cifField(cif('A', '7654321')), passwordField('Levante2024', 8, 20)]),
        ]),
        secondLogin: {
          type: 2,
          value: null,
          field: field('coordinate', 'Coordenada de su tarjeta', { min: 4, max: 4, numeric: true, password: true }, ''),
        },
        contracts: [
          { contractId: 'LVE-C01', contractInfo: 'Contrato 7001 · Cuentas' },
          { contractId: 'LVE-C02', contractInfo: 'Contrato 7002 · Divisas' },
        ],
        accounts: [
          account('LVE-0001', 'Cuenta Empresa', '90020002170100033445', null, { contractId: 'LVE-C01' }),
          account('LVE-0002', 'Cuenta en divisas', '90020002120200066778', null, { contractId: 'LVE-C02' }),
        ],
        rounds: [[coordinates(3)]],
      },
    ],
  },
  {
    group: 'cantabrico',
    name: 'Banco Cantábrico',
    banks: [
      {
        bank: bank('cantabrico', 0, 'Banco Cantábrico', [
          login('user', 'Usuario y clave', [field('userId', 'Usuario', { min: 6, max: 12 }, 'cantabro1'), pinField('864200', 6, 6)]),
        ]),
        secondLogin: {
          type: 3,
          value: 'Cantábrico Móvil',
          field: field('appToken', 'Código de la app Cantábrico Móvil', { min: 4, max: 8, numeric: true }, '905217'),
        },
        accounts: [account('CAN-0001', 'Cuenta Corriente', '90030001190100012121', 73_245)],
        rounds: [[coordinates(5)], [sms('550061', '+34 7** *** 903')]],
      },
      {
        bank: bank('cantabrico-empresas', 1, 'Banco Cantábrico · Empresas', [
          login('code', 'Código de empresa y contraseña', [
            field('userId', 'Código de empresa', { min: 8, max: 8, numeric: true }, '30012345'),
            passwordField('Cantabrico24', 8, 20),
          ]),
        ]),
        accounts: [account('CAE-0001', 'Cuenta Empresa', '90030002150100045454', null)],
        rounds: [[token('771133')], [signature('9731')]],
      },
    ],
  },
  {
    group: 'meridiano',
    name: 'Banco Meridiano',
    banks: [
      {
        bank: bank('meridiano', 0, 'Banco Meridiano', [
          login('dni', 'DNI y contraseña', [dniField(`87654321${dniLetter('87654321')}`), passwordField('Meridiano1', 8, 20)]),
        ]),
        accounts: [
          account('MER-0001', 'Cuenta Meridiano', '90040001110100088990', 312_000),
          account('MER-0002', 'Hucha (no admite transferencias)', '90040001140200011000', 45_000, { refusal: 'B107' }),
        ],
        rounds: [
          [
            validation(
              6,
              'appConfirmation',
              'Confirme la operación en la app Meridiano de su móvil',
              SIGNED,
              'Abra la app Meridiano en su móvil y confirme el pago',
              {
                numeric: false,
                min: 4,
                max: 16,
              },
            ),
          ],
        ],
      },
    ],
  },
  {
    group: 'norte',
    name: 'Banco del Norte',
    banks: [
      {
        bank: bank('norte', 0, 'Banco del Norte', [login('dni', 'DNI y clave', [dniField(`11111111${dniLetter('11111111')}`), pinField('1111')])], false),
        accounts: [account('NOR-0001', 'Cuenta Corriente', '90050001100100022222', 10_000)],
        rounds: [[sms('112233', '+34 6** *** 001')]],
      },
    ],
  },
];

/** Behaviour of each bank, by bankId. */
export const SIM_BANKS: ReadonlyMap<string, SimBank> = new Map(GROUPS.flatMap((g) => g.banks.map((b) => [b.bank.bankId, deepFreeze(b)] as const)));

/** The catalogue exactly as `banks/list` returns it in `listBanks`. */
export const NATIVE_BANKS: readonly BankGroup[] = deepFreeze(
  GROUPS.map((g) => ({ group: g.group, name: g.name, defaultType: g.banks[0]!.bank.bankId, types: g.banks.map((b) => b.bank) })),
);

/** A login call built from the test values of a login type (the bank's default login unless named). */
export function testCredentials(bankId: string, loginId?: string): { bankId: string; userId: string; userSecret: string; userExtraField?: string } {
  const sim = SIM_BANKS.get(bankId);
  if (!sim) throw new Error(`unknown bankId ${bankId}`);
  const lt = sim.bank.logins.find((l) => l.loginId === (loginId ?? sim.bank.defaultLogin));
  if (!lt) throw new Error(`unknown loginId ${loginId} at ${bankId}`);
  const [userId, userSecret, userExtraField] = lt.fields.map((f) => f.testValue ?? '');
  return { bankId, userId: userId ?? '', userSecret: userSecret ?? '', ...(userExtraField ? { userExtraField } : {}) };
}

/** Inputs that reach each part of the catalogue, for the simulator's own tests and other suites. */
export const NATIVE_TEST_INPUTS = {
  magic: NATIVE_MAGIC,
  /** One login type, one round with one SMS validation, accounts with balance. */
  simpleBankId: 'aurora',
  /** Several login types, one of them in maintenance. */
  multiLoginBankId: 'aurora',
  maintenanceBankId: 'norte',
  maintenanceLogin: { bankId: 'aurora', loginId: 'card' },
  secondLoginBankIds: { 1: 'levante', 2: 'levante-empresas', 3: 'cantabrico' },
  multiContractBankIds: ['aurora-empresas', 'levante-empresas'],
  userExtraFieldBankId: 'aurora-empresas',
  noBalanceBankId: 'levante',
  twoValidationsBankId: 'aurora-empresas',
  twoRoundBankIds: ['cantabrico', 'cantabrico-empresas'],
  indirectBankId: 'meridiano',
  accounts: {
    invalidOrigin: { bankId: 'aurora', accountId: 'AUR-0004' },
    multiSignature: { bankId: 'aurora', accountId: 'AUR-0003' },
    transfersDisabled: { bankId: 'aurora', accountId: 'AUR-0002' },
    sameAsMerchant: { bankId: 'aurora', accountId: 'AUR-0005', iban: SANDBOX_DEFAULTS.merchantIban },
  },
  /** Not an account of any bank: transfer/init answers B101. */
  unknownAccountId: 'NO-SUCH-ACCOUNT',
} as const;

/** How to reach each error code of the native service in the simulator. */
export const NATIVE_ERROR_INPUTS: Readonly<Record<NativeErrorCode, string>> = {
  E300: `transfer/validate more than ${NATIVE_VALIDATION_DEADLINE_MS / 1000} s after transfer/init: the transfer is cancelled`,
  E301: 'a malformed body (a field missing or of the wrong type, an unknown bankId), or a call out of order (see sessions)',
  E302: `transfer/init with accountDestiny equal to the origin account's IBAN, e.g. from AUR-0005 (aurora) to ${SANDBOX_DEFAULTS.merchantIban}`,
  B100: "login with values that are not a login type's test values (e.g. a wrong userSecret, of any shape); a wrong second-login code",
  B101: `transfer/init from AUR-0004 (aurora, blocked) or from an accountId the session does not list (e.g. ${NATIVE_TEST_INPUTS.unknownAccountId})`,
  B102: `transfer/init with amount above ${NATIVE_MAGIC.maxAmountCents} cents`,
  B103: `${NATIVE_MAGIC.failValidation} or any other wrong value at transfer/validate, at every bank`,
  B104: `login with userId ${NATIVE_MAGIC.actionRequiredUserId} at any active bank (any secret)`,
  B105: "login at norte (bank in maintenance) or with the test values of aurora's 'card' login (login type in maintenance)",
  B106: 'transfer/init from AUR-0003 (aurora) or AUE-0002 (aurora-empresas): joint accounts',
  B107: 'transfer/init from AUR-0002 (aurora) or MER-0002 (meridiano): transfers disabled',
  B108: `login with userId ${NATIVE_MAGIC.noTransferUserId} at any active bank (any secret), then transfer/init`,
};
