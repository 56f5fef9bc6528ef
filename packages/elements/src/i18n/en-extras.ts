/**
 * English: the texts of what loads after the first screen (the phone hand-off, the other rail,
 * the receipt, what happens next once an unknown outcome is no longer watched), which come with
 * that file. `date.months`: the month names as the kit writes a
 * long date where it writes one itself (Basque and Galician; logic/format.ts `longDate`).
 */
export const enExtras = {
  'handoff.offer': 'Continue on your phone',
  'handoff.offerDetail': 'Scan a code with your phone and pay there. This page shows the result.',
  'handoff.periodicOffer': 'Finish on my phone (a code to scan is shown)',
  'handoff.title': 'Continue on your phone',
  'handoff.waiting': 'Waiting for your phone',
  'handoff.body':
    "Scan this code with your phone's camera to open your bank's page there. Keep this page open: it shows the result as soon as your bank confirms it.",
  'handoff.qrLabel': "QR code that opens your bank's page on your phone",
  'handoff.link': 'Or open this link on your phone:',
  'handoff.copy': 'Copy link',
  'handoff.copied': 'Link copied.',
  'handoff.expires': 'The code works once, until {time}.',
  'handoff.renew': 'Show a new code',
  'handoff.used': 'The code was opened on your phone: go on there. This page shows the result as soon as your bank confirms it.',
  'handoff.expired': 'This code has expired: show a new one to go on on your phone.',
  'handoff.failed': 'The code could not be made. Try again.',
  'rail.title': 'Pay at your bank’s own page',
  'rail.body': '{bank} cannot go on here right now, but you can still pay at its own page.',
  'rail.bodyNoBank': 'Your bank cannot go on here right now, but you can still pay at its own page.',
  'rail.start': 'Pay at the page of {bank}',
  'rail.startNoBank': 'Pay at your bank’s page',
  'receipt.title': 'Receipt',
  'receipt.completed': 'Payment completed',
  'receipt.amount': 'Amount paid',
  'receipt.payee': 'Paid to',
  'receipt.iban': 'Payee account',
  'receipt.subject': 'Concept',
  'receipt.reference': 'Reference',
  'receipt.bank': 'Paying bank',
  'receipt.account': 'Paid from',
  'receipt.bankReference': 'Bank reference',
  'receipt.date': 'Date',
  'receipt.print': 'Print receipt',
  'date.months': 'January,February,March,April,May,June,July,August,September,October,November,December',
  'result.unknownLater': 'Your bank has not confirmed this payment yet. The shop will settle it with the bank and let you know; you can close this page.',
} as const;
