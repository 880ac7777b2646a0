import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { sessionsService } from '../calendar/sessions.service';
import { settingsService } from '../settings/settings.service';
import { teachingService } from '../teaching/teaching.service';
import { accessScope } from '../access/scope.service';
import { CheckoutService } from './checkout.service';
import { DiscountsRepository } from './discounts.repository';
import { DiscountsService } from './discounts.service';
import { FeesService } from './fees.service';
import { PaymentReportsService } from './payment-reports.service';
import type { PaymentProvider } from './payments.providers';
import type { PaymentsRepository } from './payments.repository';

export { presentPayment } from './payments.presenters';

/**
 * The payments feature, one service per job (as results/ is split): `checkout` takes payments
 * (initiate, verify, webhook, simulator), `reports` reads them (history, class report and summary,
 * payment context, receipts), `fees` keeps the fee items and balances. Sessions and school settings
 * are read through their own modules' services.
 */
export class PaymentsService {
  readonly fees: FeesService;
  readonly checkout: CheckoutService;
  readonly reports: PaymentReportsService;

  constructor(
    repo: PaymentsRepository,
    readonly provider: PaymentProvider,
    config: Pick<Config, 'publicUrl' | 'paystackSecretKey'>,
    log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  ) {
    const sessions = sessionsService(repo.db);
    const settings = settingsService(repo.db);
    this.fees = new FeesService(repo, sessions, teachingService(repo.db));
    const scope = accessScope(repo.db);
    this.checkout = new CheckoutService(repo, provider, config, this.fees, sessions, settings, scope, log);
    const discounts = new DiscountsService(new DiscountsRepository(repo.db), this.fees, sessions);
    this.reports = new PaymentReportsService(repo, this.fees, sessions, settings, discounts, scope);
  }
}
