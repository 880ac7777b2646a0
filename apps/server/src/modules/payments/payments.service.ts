import type { CheckoutService } from './checkout.service';
import type { FeesService } from './fees.service';
import type { PaymentReportsService } from './payment-reports.service';
import type { PaymentProvider } from './payments.providers';

export { presentPayment } from './payments.presenters';

/**
 * The payments feature, one service per job (as results/ is split): `checkout` takes payments
 * (initiate, verify, webhook, simulator), `reports` reads them (history, class report and summary,
 * payment context, receipts), `fees` keeps the fee items and balances. Each is built once by the
 * composition root (src/composition.ts) and handed in here.
 */
export class PaymentsService {
  readonly provider: PaymentProvider;

  constructor(
    readonly fees: FeesService,
    readonly checkout: CheckoutService,
    readonly reports: PaymentReportsService,
  ) {
    this.provider = checkout.provider;
  }
}
