/**
 * What the simulated banks ask: the validations of a transfer round and the second login,
 * with the card coordinates (types 2, 3 and 5) drawn in turn from the simulator's card.
 */
import { CARD_DATA_URL, cardPosition, cardValue } from './card.js';
import type { SimBank, ValidationSpec } from './catalogue.js';
import type { IssuedValidation, PendingSecondLogin } from './sessions.js';

export interface Challenges {
  /** The validation asked for `spec`, with its card coordinate drawn when it has one. */
  issue: (spec: ValidationSpec) => IssuedValidation;
  /** The second login the bank asks after login, if it asks one. */
  startSecondLogin: (sim: SimBank) => PendingSecondLogin | undefined;
}

export function createChallenges(): Challenges {
  let challenges = 0;
  /** The next card position asked, with the value that answers it. */
  const nextCoordinate = () => {
    const position = cardPosition(challenges++);
    return { position, value: cardValue(position)! };
  };

  function issue(spec: ValidationSpec): IssuedValidation {
    let { label, value, testValue } = spec;
    if (spec.type === 2 || spec.type === 3 || spec.type === 5) {
      const c = nextCoordinate();
      testValue = c.value;
      value = spec.type === 5 ? CARD_DATA_URL : c.position;
      label =
        spec.type === 2
          ? `Valor de la coordenada ${c.position} de su tarjeta`
          : spec.type === 3
            ? `Valor en su tarjeta de la coordenada recibida por SMS (${c.position})`
            : `Valor de la coordenada ${c.position} de la tarjeta mostrada`;
    }
    return {
      fieldId: spec.fieldId,
      min: spec.min,
      max: spec.max,
      valueType: spec.valueType,
      specificType: null,
      password: spec.password,
      label,
      testValue,
      type: String(spec.type),
      value,
      valueFromUser: null,
    };
  }

  function startSecondLogin(sim: SimBank): PendingSecondLogin | undefined {
    const spec = sim.secondLogin;
    if (!spec) return undefined;
    if (spec.type !== 2) return { type: spec.type, value: spec.value, field: spec.field };
    const c = nextCoordinate();
    return {
      type: 2,
      value: c.position,
      field: { ...spec.field, label: `Valor de la coordenada ${c.position} de su tarjeta`, testValue: c.value },
    };
  }

  return { issue, startSecondLogin };
}
