/**
 * English: the texts of what loads after the first screen (the phone hand-off, the other rail,
 * the receipt), which come with that file. Locales without them fall back to English.
 */
export const enExtras = {
  'handoff.offer': 'Continue on your phone',
  'handoff.offerDetail': 'Scan a code with your phone and pay there. This page shows the result.',
  'handoff.periodicOffer': 'Finish on my phone (a code to scan is shown)',
  'handoff.title': 'Continue on your phone',
  'handoff.body':
    "Scan this code with your phone's camera to open your bank's page there. Keep this page open: it shows the result as soon as your bank confirms it.",
  'handoff.qrLabel': "QR code that opens your bank's page on your phone",
  'handoff.link': 'Or open this link on your phone:',
  'handoff.copy': 'Copy link',
  'handoff.copied': 'Link copied.',
  'handoff.expires': 'The code works once, until {time}.',
  'handoff.renew': 'Show a new code',
  'handoff.failed': 'The code could not be made. Try again.',
  'rail.title': 'Pay at your bank’s own page',
  'rail.body': '{bank} cannot go on here right now, but you can still pay at its own page.',
  'rail.bodyNoBank': 'Your bank cannot go on here right now, but you can still pay at its own page.',
  'rail.start': 'Pay at the page of {bank}',
  'rail.startNoBank': 'Pay at your bank’s page',
  'receipt.title': 'Receipt',
  'receipt.amount': 'Amount paid',
  'receipt.payee': 'Paid to',
  'receipt.iban': 'Payee account',
  'receipt.subject': 'Concept',
  'receipt.reference': 'Reference',
  'receipt.date': 'Date',
  'receipt.operation': 'Operation id',
  'receipt.print': 'Print receipt',
} as const;
