import type { enChallenge } from './en-challenge.js';

/** Spanish: the validation form's (<bank-challenge>), which come with that form's own file. */
export const esChallenge: Record<keyof typeof enChallenge, string> = {
  'challenge.title': 'Confirma el pago',
  'challenge.round': 'Confirmación {round}',
  'challenge.nextRound': 'Tu banco pide una confirmación más.',
  'challenge.notYet': 'Tu banco aún no ha recibido la confirmación. Inténtalo de nuevo.',
  'challenge.code': 'Código',
  'challenge.type0': 'Escribe tu código de firma (clave de operaciones).',
  'challenge.type1': 'Escribe el código que tu banco te ha enviado por SMS.',
  'challenge.type1To': 'Escribe el código que tu banco ha enviado por SMS al {phone}.',
  'challenge.type2': 'Escribe el valor de la posición {position} de tu tarjeta de coordenadas.',
  'challenge.type3': 'Tu banco te ha enviado una posición por SMS: búscala en tu tarjeta de coordenadas y escribe su valor.',
  'challenge.type3At': 'Escribe el valor de la posición {position} de tu tarjeta de coordenadas, enviada por SMS.',
  'challenge.type4': 'Escribe el código de tu token o de la app de tu banco.',
  'challenge.type5': 'Busca la posición pedida en la tarjeta de coordenadas que se muestra y escribe su valor.',
  'challenge.cardAlt': 'Tarjeta de coordenadas mostrada por tu banco: una cuadrícula de valores por letra de columna y número de fila.',
  'challenge.cardAltAt': 'Tu tarjeta de coordenadas. Escribe el valor de: {position}',
  'challenge.testNotYet': 'Prueba: pulsar antes de aprobar',
  'challenge.type6': 'Abre la app de tu banco en tu otro dispositivo y aprueba el pago. Después pulsa «{done}».',
  'challenge.waiting': 'Esperando tu aprobación en la app…',
  'challenge.done': 'Ya lo he aprobado',
  'challenge.submit': 'Confirmar el pago',
  'challenge.timeLeft': 'Tiempo restante',
  'challenge.announce': 'Quedan {seconds} segundos para confirmar el pago.',
  'challenge.expired': 'Se acabó el tiempo: tu banco ha cancelado la operación.',
  'challenge.newCode': 'Tu banco ha enviado una nueva comprobación: respóndela abajo.',
};
