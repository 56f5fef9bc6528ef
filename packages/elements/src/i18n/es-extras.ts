import type { enExtras } from './en-extras.js';

/** Spanish: the texts of what loads after the first screen (see en-extras.ts). */
export const esExtras: Record<keyof typeof enExtras, string> = {
  'handoff.offer': 'Continuar en el móvil',
  'handoff.offerDetail': 'Escanea un código con el móvil y paga allí. Esta página muestra el resultado.',
  'handoff.periodicOffer': 'Terminar en el móvil (se muestra un código para escanear)',
  'handoff.title': 'Continúa en el móvil',
  'handoff.body':
    'Escanea este código con la cámara del móvil para abrir allí la página de tu banco. Deja esta página abierta: muestra el resultado en cuanto tu banco lo confirme.',
  'handoff.qrLabel': 'Código QR que abre la página de tu banco en el móvil',
  'handoff.link': 'O abre este enlace en el móvil:',
  'handoff.copy': 'Copiar enlace',
  'handoff.copied': 'Enlace copiado.',
  'handoff.expires': 'El código sirve una vez, hasta las {time}.',
  'handoff.renew': 'Mostrar un código nuevo',
  'handoff.failed': 'No se pudo crear el código. Inténtalo de nuevo.',
  'rail.title': 'Paga en la página de tu banco',
  'rail.body': '{bank} no puede seguir aquí ahora, pero puedes pagar en su propia página.',
  'rail.bodyNoBank': 'Tu banco no puede seguir aquí ahora, pero puedes pagar en su propia página.',
  'rail.start': 'Pagar en la página de {bank}',
  'rail.startNoBank': 'Pagar en la página de tu banco',
  'receipt.title': 'Justificante',
  'receipt.amount': 'Importe pagado',
  'receipt.payee': 'Pagado a',
  'receipt.iban': 'Cuenta del beneficiario',
  'receipt.subject': 'Concepto',
  'receipt.reference': 'Referencia',
  'receipt.date': 'Fecha',
  'receipt.operation': 'Id. de la operación',
  'receipt.print': 'Imprimir justificante',
};
