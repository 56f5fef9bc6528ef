import type { enFrame } from './en-frame.js';

/** Spanish: the texts only the isolated checkout's frame shows (en-frame.ts). */
export const esFrame: Record<keyof typeof enFrame, string> = {
  'error.launch_used':
    'Este pago ya se abrió en otro sitio, así que no puede continuar aquí. No se ha enviado nada de lo que hayas escrito. Recarga la página para empezar de nuevo.',
  'result.elsewhere': 'Este pago continúa en otro sitio',
  'error.opened_elsewhere': 'Este pago se ha abierto en otro navegador o en otro dispositivo, y continúa allí. Para continuar aquí, recarga esta página.',
  'error.launch_expired': 'Este pago tardó demasiado en abrirse. Recarga la página para empezar de nuevo.',
  'error.frame_hidden':
    'El pago no se ve entero en tu pantalla, así que no se ha confirmado. Asegúrate de que nada lo tape y de que se vean el importe y el botón, y vuelve a confirmar.',
  'error.frame_unsettled':
    'El pago se movió o cambió en tu pantalla justo antes de que confirmaras, así que no se ha confirmado. Comprueba el importe y a quién pagas, y vuelve a confirmar.',
};
