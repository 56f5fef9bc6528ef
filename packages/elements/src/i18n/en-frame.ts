/**
 * English: the texts only the isolated checkout's frame shows (its page registers them): why its
 * launch could not be redeemed, that the payment went on in another browser, and why the payer's
 * confirmation did not count (the payment not fully visible, or changed on the screen just
 * before). They stay out of what a page that embeds the kit loads.
 */
export const enFrame = {
  'error.launch_used':
    'This checkout was already opened somewhere else, so it cannot continue here. Nothing you typed was sent. Reload the page to start again.',
  'result.elsewhere': 'This payment continues elsewhere',
  'error.opened_elsewhere':
    'This payment was opened in another browser or on another device, and it continues there. To continue here instead, reload this page.',
  'error.launch_expired': 'This checkout took too long to open. Reload the page to start again.',
  'error.frame_hidden':
    'The payment is not fully visible on your screen, so it was not confirmed. Make sure nothing covers it and that the amount and the button show, then confirm again.',
  'error.frame_unsettled':
    'The payment moved or changed on your screen just before you confirmed, so it was not confirmed. Check the amount and who you pay, then confirm again.',
} as const;
