import { formatNaira, koboToNaira } from '@portal/domain';
import type { PaymentSimulatorTransactionsTable } from './payments.tables';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
  main{max-width:26rem;margin:0 auto;padding:1.5rem 1rem}
  .card{background:#fff;border:1px solid #cbd5e1;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 2px rgba(0,0,0,.05)}
  h1{font-size:1.25rem;margin:0 0 .25rem}p{margin:.25rem 0}.muted{color:#475569;font-size:.875rem}
  .amount{font-size:2rem;font-weight:700;margin:1rem 0;color:#14532d}
  .note{background:#fef3c7;border:1px solid #f59e0b;border-radius:.5rem;padding:.5rem .75rem;font-size:.875rem;margin:1rem 0}
  dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;font-size:.875rem;margin:1rem 0}dt{color:#475569}dd{margin:0;word-break:break-all}
  form{display:flex;flex-direction:column;gap:.5rem;margin-top:1rem}
  button,a.button{min-height:2.75rem;border-radius:.5rem;font-size:1rem;font-weight:600;border:1px solid transparent;cursor:pointer;text-align:center;text-decoration:none;padding:.6rem 1rem}
  .pay{background:#166534;color:#fff}.decline{background:#b91c1c;color:#fff}.abandon{background:#fff;color:#1e293b;border-color:#94a3b8}
  a.button{display:block;background:#166534;color:#fff}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** Where the simulator sends the payer back, as Paystack does: `callback?trxref=REF&reference=REF`. */
export function simulatorReturnUrl(tx: Pick<PaymentSimulatorTransactionsTable, 'callback_url' | 'reference'>): string {
  const sep = tx.callback_url.includes('?') ? '&' : '?';
  const ref = encodeURIComponent(tx.reference);
  return `${tx.callback_url}${sep}trxref=${ref}&reference=${ref}`;
}

/** The checkout page: amount in naira and Pay / Decline / Abandon, as plain forms (no script: CSP). */
export function simulatorCheckoutPage(tx: PaymentSimulatorTransactionsTable, schoolName: string): string {
  const amount = formatNaira(koboToNaira(tx.amount_kobo));
  const details = `<dl><dt>Merchant</dt><dd>${escapeHtml(schoolName)}</dd><dt>Email</dt><dd>${escapeHtml(tx.email)}</dd>
<dt>Reference</dt><dd>${escapeHtml(tx.reference)}</dd></dl>`;
  if (tx.status !== 'pending') {
    const word = tx.status === 'success' ? 'paid' : tx.status === 'failed' ? 'declined' : 'abandoned';
    return page(
      'Payment simulator',
      `<div class="card"><h1>Payment simulator</h1><p class="amount">${amount}</p>${details}
<p>This payment was already ${word}.</p><p><a class="button" href="${escapeHtml(simulatorReturnUrl(tx))}">Return to the school portal</a></p></div>`,
    );
  }
  return page(
    'Payment simulator',
    `<div class="card"><h1>Payment simulator</h1><p class="muted">Secure checkout</p>
<p class="amount" data-testid="simulator-amount">${amount}</p>${details}
<p class="note">Test mode: no card is charged. Choose what the payment provider should report.</p>
<form method="post"><button class="pay" type="submit" name="outcome" value="pay">Pay ${amount}</button>
<button class="decline" type="submit" name="outcome" value="decline">Decline</button>
<button class="abandon" type="submit" name="outcome" value="abandon">Abandon</button></form></div>`,
  );
}

export function simulatorNotFoundPage(): string {
  return page('Payment simulator', `<div class="card"><h1>Payment simulator</h1><p>This checkout link is not valid.</p></div>`);
}
