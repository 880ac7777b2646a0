import { attachReferenceCache, ReferenceCache } from './db/reference-cache';
import { tableChangesOf, UNSHOWN_TABLES } from './db/table-changes';
import { TableMemo } from './db/table-memo';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { DatabaseHandle, DB, Trx } from './db/index';
import { TokenService } from './lib/tokens';
import { AccessScope } from './modules/access/scope.service';
import { ScopeRepository } from './modules/access/scope.repository';
import { AttendanceRepository } from './modules/attendance/attendance.repository';
import { AttendanceService } from './modules/attendance/attendance.service';
import { CarriedImportService } from './modules/attendance/carried-import.service';
import { RegisterService } from './modules/attendance/register.service';
import { AuthRepository } from './modules/auth/auth.repository';
import { AuthService } from './modules/auth/auth.service';
import { CapabilitiesRepository } from './modules/auth/capabilities.repository';
import { CapabilitiesService } from './modules/auth/capabilities.service';
import { CalendarEditService } from './modules/calendar/calendar-edit.service';
import { CalendarRepository } from './modules/calendar/calendar.repository';
import { CalendarService } from './modules/calendar/calendar.service';
import { SchoolTime } from './modules/calendar/school-time.service';
import { SessionsRepository } from './modules/calendar/sessions.repository';
import { SessionsService, type SessionRows } from './modules/calendar/sessions.service';
import { FamilyService, type FamilyCardGate, type FamilyFees } from './modules/parents/family.service';
import { ParentLinking } from './modules/parents/linking.service';
import { ParentsRepository } from './modules/parents/parents.repository';
import { ParentsService } from './modules/parents/parents.service';
import { BanksRepository } from './modules/payments/banks.repository';
import { BanksService } from './modules/payments/banks.service';
import { BursaryRepository } from './modules/payments/bursary.repository';
import { BursaryService } from './modules/payments/bursary.service';
import { CheckoutService } from './modules/payments/checkout.service';
import { DiscountsRepository } from './modules/payments/discounts.repository';
import { DiscountsService } from './modules/payments/discounts.service';
import { FeeReportsRepository } from './modules/payments/fee-reports.repository';
import { FeeReportsService } from './modules/payments/fee-reports.service';
import { feeCalendar, FeesService, feesForCards, feesForFamily, feesForGate, type BroughtForwardOf } from './modules/payments/fees.service';
import { ArrearsRepository } from './modules/payments/arrears.repository';
import { ArrearsService } from './modules/payments/arrears.service';
import { PaymentReportsService } from './modules/payments/payment-reports.service';
import { paymentProviderFor, type PaymentProvider } from './modules/payments/payments.providers';
import { PaymentsRepository } from './modules/payments/payments.repository';
import { PaymentsService } from './modules/payments/payments.service';
import { StatementService } from './modules/payments/statement.service';
import { TransferReportsRepository } from './modules/payments/transfer-reports.repository';
import { TransferReportsService } from './modules/payments/transfer-reports.service';
import { ImportService } from './modules/people/import.service';
import { NewAccountsService } from './modules/people/new-accounts.service';
import { PeopleRepository } from './modules/people/people.repository';
import { PeopleLookups, PeopleService } from './modules/people/people.service';
import { ClassHistoryRepository } from './modules/people/class-history.repository';
import { StaffService } from './modules/people/staff.service';
import { StudentPhotosService } from './modules/people/student-photos.service';
import { StudentsService, type StudentStoredFiles } from './modules/people/students.service';
import { AssessmentRepository } from './modules/results/assessment.repository';
import { AssessmentService } from './modules/results/assessment.service';
import { CardEntriesRepository } from './modules/results/card-entries.repository';
import { GradingRepository } from './modules/results/grading.repository';
import { GradingService } from './modules/results/grading.service';
import { ReportApprovalsService } from './modules/results/report-approvals.service';
import { ReportCardService, type CardMemos } from './modules/results/report-card.service';
import type { ReleasedArms } from './modules/results/results.ports';
import type { ReportCard } from '@portal/domain';
import { BroadsheetService } from './modules/results/broadsheet.service';
import { ReportCardsRepository } from './modules/results/report-cards.repository';
import { ReportSheetsService } from './modules/results/report-sheets.service';
import { ReportTermsService } from './modules/results/report-terms.service';
import type { CardFees, CardGateFees } from './modules/results/results.ports';
import { CardGate } from './modules/results/card-gate.service';
import { CardFeeReleasesRepository } from './modules/results/card-fee-releases.repository';
import { ResultsRepository } from './modules/results/results.repository';
import { ResultsService } from './modules/results/results.service';
import { ScoreSheetRepository } from './modules/results/score-sheet.repository';
import { ScoreSheetService } from './modules/results/score-sheet.service';
import { ScoreWriter } from './modules/results/score-writer';
import { ArmSheetAccess } from './modules/results/sheet-access';
import { SettingsRepository } from './modules/settings/settings.repository';
import { SettingsService } from './modules/settings/settings.service';
import { SetupRepository } from './modules/setup/setup.repository';
import { SetupService } from './modules/setup/setup.service';
import { RolloverService } from './modules/rollover/rollover.service';
import { PromotionRepository } from './modules/promotion/promotion.repository';
import { PromotionService } from './modules/promotion/promotion.service';
import { AssignmentsService } from './modules/teaching/assignments.service';
import { StructureService } from './modules/teaching/structure.service';
import { TeachingRepository } from './modules/teaching/teaching.repository';
import { TeachingService } from './modules/teaching/teaching.service';
import { NoticeTemplatesRepository } from './modules/notices/templates.repository';
import { NoticeTemplatesService } from './modules/notices/templates.service';
import { NoticeBlastsRepository } from './modules/notices/blasts.repository';
import { NoticeBlastsService } from './modules/notices/blasts.service';
import { NoticeComposerService } from './modules/notices/composer';
import { NoticeRecipientsRepository } from './modules/notices/composer.repository';
import { FeeRemindersService } from './modules/notices/reminders.service';
import { noticeChannelsFor } from './modules/notices/channels';
import { NoticeDelivery } from './modules/notices/delivery.service';
import { NoticeSettingsService } from './modules/notices/notice-settings.service';
import type { NoticeComposer } from './modules/notices/notices.ports';
import { NoticesRepository } from './modules/notices/notices.repository';
import { NoticesService } from './modules/notices/notices.service';
import { AttemptThrottle } from './modules/auth/attempt-throttle.service';
import { ResultCheckService } from './modules/pins/check.service';
import { PinSecrets } from './modules/pins/pin-secrets';
import type { PinCardPdf, PinCards } from './modules/pins/pins.ports';
import { PinsRepository } from './modules/pins/pins.repository';
import { ResultPinsService } from './modules/pins/pins.service';
import { CardPdfs } from './modules/results/card-pdfs.service';
import { CardPdfsRepository } from './modules/results/card-pdfs.repository';
import { ConcurrencyLimiter } from './lib/limiter';
import { BursarDashboardService } from './modules/dashboards/bursar.service';
import { StaffDashboardRepository } from './modules/dashboards/staff.repository';
import { StaffDashboardService } from './modules/dashboards/staff.service';
import { AdminDashboardQueries } from './modules/dashboards/admin.queries';
import { AdminDashboardService } from './modules/dashboards/admin.service';
import { StudentDashboardService } from './modules/dashboards/student.service';

/** What the services are built from: the app's own dependencies, nothing else (docs/decisions/028). */
export interface ServiceDeps {
  db: DB;
  dialect: DatabaseHandle['dialect'];
  config: Config;
  log: FastifyBaseLogger;
  /** "Today" (the register, fees falling due): buildApp's `now`; Date.now unless a test fixes it. */
  now?: () => number;
  /** The clock of tokens and sign-in limits: buildApp's `clock`; Date.now unless a test steps it. */
  clock?: () => number;
  /** Tests: a payment provider of their own; else the configured one (`paymentProviderFor`). */
  paymentProvider?: PaymentProvider;
  /** How many PDFs render at once (buildApp's; else one of the config's size): the stored cards' renderer yields to it (decision 050). */
  pdfRenders?: ConcurrencyLimiter;
  /** Tests: a reference cache of their own; else a new one over `db` (docs/decisions/047). */
  referenceCache?: ReferenceCache;
}

/** Every service of the portal, built once; each module's routes take the ones they name. */
export type Services = ReturnType<typeof buildServices>;

/** Memoised cards per process: about 1,000 readers' cards (some 20 KB each) and 40 arms' lists. */
const CARD_MEMO_ENTRIES = 1000;
const CLASS_MEMO_ENTRIES = 40;

/** A table whose writes may change a card or who may read one: all but `UNSHOWN_TABLES` (decision 053). */
const unshown = new Set<string>(UNSHOWN_TABLES);
const cardTable = (table: string) => !unshown.has(table);

/**
 * The composition root: builds every repository and service of the server once, from the app's
 * dependencies, in the order of the module layers (docs/ARCHITECTURE.md), and wires the ports a
 * module declares for what a module beside or above it answers (results' `CardFees`, attendance's
 * `TimesOpened`, people's `SchoolClasses`). No route file and no service constructs a service or a
 * repository of its own: lint refuses it in route files (eslint.config.js). Tests that need a
 * service over a connection of their own (counting statements) call this too.
 */
export function buildServices(deps: ServiceDeps) {
  const { db, dialect, config, log, now = Date.now, clock = Date.now } = deps;
  const tokens = new TokenService(config.jwtSecret, config.accessTokenSeconds, config.refreshTokenSeconds, clock);
  // Reference rows read through `db` come from this cache; this process's writes drop what they change
  // (decision 047). buildApp makes it hear other instances' changes on PostgreSQL.
  const referenceCache = deps.referenceCache ?? new ReferenceCache();
  attachReferenceCache(db, referenceCache);
  tableChangesOf(db)?.subscribe((tables) => referenceCache.invalidate(tables));
  // Report cards memoised per reader until a write changes a table they read (decision 053).
  // Only over a database whose writes it hears (the app's: createDatabase gives it a change feed).
  const feed = tableChangesOf(db);
  const memoOn = config.cardMemo !== false && feed !== undefined;
  const cardMemos: CardMemos = {
    card: new TableMemo<ReportCard>(cardTable, CARD_MEMO_ENTRIES, { enabled: memoOn }),
    classCards: new TableMemo<ReportCard[]>(cardTable, CLASS_MEMO_ENTRIES, { enabled: memoOn }),
  };
  feed?.subscribe((tables) => {
    cardMemos.card.invalidate(tables);
    cardMemos.classCards.invalidate(tables);
  });

  // Layer 0: settings and the calendar.
  // The catalogue is teaching's, built below, and the current session the calendar's, built next:
  // both read only when settings are read or saved, long after.
  const settings = new SettingsService(
    db,
    new SettingsRepository(db),
    () => teaching.catalogueNames(),
    async (trx?: Trx): Promise<number | undefined> => (trx ? sessions.currentIdLockedIn(trx) : (await sessions.currentOrLatest())?.id),
  );
  const sessionsRepo = new SessionsRepository(db, dialect);
  const sessions = new SessionsService(sessionsRepo, settings);
  const sessionRows: SessionRows = sessionsRepo;
  // The one "today": the school's time zone (a setting) and the app's clock (docs/decisions/025).
  const schoolTime = new SchoolTime(settings, now);
  const calendarRepo = new CalendarRepository(db);
  const calendar = new CalendarService(calendarRepo, settings, sessions, schoolTime);

  // Which students a person reaches, and for what (modules/access).
  const scope = new AccessScope(new ScopeRepository(db));

  // Layer 1: accounts and people.
  const accounts = new AuthRepository(db);
  const auth = new AuthService(accounts, tokens, config, log, clock);
  const capabilities = new CapabilitiesService(new CapabilitiesRepository(db));
  const peopleRepo = new PeopleRepository(db);
  const peopleLookups = new PeopleLookups(peopleRepo);
  // Class history per session (decision record 038): promotion, payments, results and access read it.
  const people = new PeopleService(new ClassHistoryRepository(), db);

  // Layer 2: teaching (people's `SchoolClasses` is teaching's service, handed down).
  const teachingRepo = new TeachingRepository(db);
  const teaching = new TeachingService(db, teachingRepo);
  const structure = new StructureService(db, teachingRepo, teaching, peopleLookups, sessions, settings);
  const assignments = new AssignmentsService(db, teachingRepo, peopleLookups, sessions);
  // Parents' links are written by the student form and the import in their transactions (people's `StudentParentLinks`).
  const parentsRepo = new ParentsRepository(db, dialect);
  const parentLinking = new ParentLinking(parentsRepo);
  // A withdrawal drops the student's stored card PDFs through `cardPdfs` (built below with the results).
  const studentFiles: StudentStoredFiles = { forgetStudent: (conn, id) => cardPdfs.forgetStudent(conn, id) };
  const students = new StudentsService(peopleRepo, teaching, scope, schoolTime, parentLinking, studentFiles);
  const staff = new StaffService(peopleRepo, schoolTime);
  const studentPhotos = new StudentPhotosService(db, peopleRepo);
  const imports = new ImportService(peopleRepo, teaching, schoolTime, parentLinking);
  const newAccounts = new NewAccountsService(peopleRepo, schoolTime);

  // Layer 3: attendance (its carried-in import is wired below, once results' sheets exist).
  const attendanceRepo = new AttendanceRepository(db);
  const attendance = new AttendanceService(attendanceRepo, calendar, teaching, scope);
  const registers = new RegisterService(attendanceRepo, calendar, teaching, now);
  // The calendar's edits must not strand a saved register: attendance's repository answers `RegisterDays`.
  const calendarEdits = new CalendarEditService(calendarRepo, calendar, settings, attendanceRepo);

  // Payments.
  const paymentsRepo = new PaymentsRepository(db);
  const bursaryRepo = new BursaryRepository(db);
  const fees = new FeesService(paymentsRepo, sessions, teaching);
  const feeDates = feeCalendar(calendar, sessions);
  // The balance brought forward (decision 041): computed from past sessions, each student in their arm there.
  const arrears = new ArrearsService(new ArrearsRepository(db), paymentsRepo, async (sessionIds, students) => {
    const arms = await people.armsInSessions(
      db,
      sessionIds,
      students.map((s) => s.id),
    );
    return new Map([...arms].map(([sessionId, m]) => [sessionId, new Map([...m].map(([id, a]) => [id, a.student_class]))]));
  });
  const discounts = new DiscountsService(new DiscountsRepository(db), fees, sessions);
  const provider = deps.paymentProvider ?? paymentProviderFor(config, db);
  const broughtForward: BroughtForwardOf = (session, students) => arrears.broughtForward(session, students);
  const checkout = new CheckoutService(paymentsRepo, provider, config, fees, sessions, settings, scope, log, broughtForward);
  const payments = new PaymentsService(
    fees,
    checkout,
    new PaymentReportsService(paymentsRepo, fees, sessions, settings, discounts, scope, broughtForward),
  );
  const banks = new BanksService(new BanksRepository(db));
  const bursary = new BursaryService(bursaryRepo, sessions, calendar, banks);
  const statements = new StatementService(scope, bursaryRepo, fees, sessions, feeDates, discounts, arrears, people);
  const feeReports = new FeeReportsService(new FeeReportsRepository(db), fees, sessions, teaching, feeDates, arrears);
  const transferReports = new TransferReportsService(
    new TransferReportsRepository(db),
    bursary,
    bursaryRepo,
    scope,
    sessions,
    calendar,
    capabilities,
  );

  // Results: the card's fee figures through its own port, answered by payments (results imports no payments code).
  const cardFees: CardFees = (q) => feesForCards(paymentsRepo, feeDates, q, broughtForward);
  const resultsRepo = new ResultsRepository(db, dialect);
  const cardRepo = new ReportCardsRepository(db);
  const rosterRepo = new ScoreSheetRepository(db, dialect);
  const grading = new GradingService(new GradingRepository(db, dialect), sessionRows);
  const assessment = new AssessmentService(new AssessmentRepository(db, dialect), sessionRows);
  // One score writer for every way a score is written (the spec's routes, the grid, its CSV import).
  const scoreWriter = new ScoreWriter(rosterRepo, resultsRepo, grading, sessionRows, teaching, assessment);
  // Published arms' card PDFs are drawn in the background by `cardPdfs` (built below, from the cards these results make).
  const releasedArms: ReleasedArms = { released: (arms) => cardPdfs.released(arms) };
  const results = new ResultsService(resultsRepo, grading, sessionRows, teaching, assessment, cardRepo, scope, scoreWriter, releasedArms);
  // The fee gate (decision 042): results' `CardGateFees` port, answered by payments' term standing.
  const cardGateFees: CardGateFees = (q) =>
    feesForGate(paymentsRepo, feeDates, q, { payments: (id, sessionId) => bursaryRepo.statementEntries(id, sessionId), broughtForward });
  const cardGate = new CardGate(db, settings, sessionRows, peopleLookups, cardGateFees, new CardFeeReleasesRepository(db));
  const reportCards = new ReportCardService({
    repo: resultsRepo,
    results,
    grading,
    settings,
    sessions: sessionRows,
    teaching,
    assessment,
    cardRepo,
    fees: cardFees,
    attendance,
    scope,
    gate: cardGate,
    memo: cardMemos,
    now,
  });
  // Report-card PDFs made once at release (decision 050): stored with their fingerprint, drawn in the background.
  const pdfRenders = deps.pdfRenders ?? new ConcurrencyLimiter(config.pdfRender.concurrency, config.pdfRender.waitMs);
  const cardPdfs = new CardPdfs(reportCards, new CardPdfsRepository(db), pdfRenders, log, now, config.pdfRender.store !== false);
  const broadsheets = new BroadsheetService(resultsRepo, sessionRows, teaching, assessment);
  const reportApprovals = new ReportApprovalsService(cardRepo, sessionRows, settings, teaching, cardPdfs);
  const scoreSheets = new ScoreSheetService(rosterRepo, resultsRepo, sessionRows, teaching, assessment, scoreWriter);
  const cardEntries = new CardEntriesRepository(db, dialect);
  const armSheets = new ArmSheetAccess(cardEntries, rosterRepo, sessionRows, teaching, settings, cardRepo, attendance);
  const reportSheets = new ReportSheetsService(armSheets, resultsRepo);
  const reportTerms = new ReportTermsService(armSheets, sessionRows, cardEntries);

  // Attendance's carried-in totals are bounded by the card's times opened: results' rule, handed down.
  const carriedImport = new CarriedImportService(attendanceRepo, sessions, (sessionId, term) => reportTerms.timesOpened(sessionId, term));

  // The first-run checklist.
  const setup = new SetupService(new SetupRepository(db), settings);

  // Starting the next session (docs/decisions/040): each copy is its owning module's, in one transaction.
  const rollover = new RolloverService(db, sessions, calendarEdits, fees, assessment, grading, assignments);
  // End-of-session promotion (issue 34, decision record 039): decisions from results, class history through people.
  const promotion = new PromotionService(db, new PromotionRepository(db, dialect), people, results, teaching, sessions, settings, log);
  // Result-checker PINs (issue 34, decision record 043): batches, sales, the public check. The card is
  // results' own, read as the student (so the fee gate, `cardGate`, applies to it as to the student);
  // wrong PINs are counted by sign-in's throttle (auth's AttemptThrottle).
  const pinsRepo = new PinsRepository(db, dialect);
  const pinSecrets = new PinSecrets(config.resultPinSecret);
  const resultPins = new ResultPinsService(pinsRepo, pinSecrets, sessions, settings, peopleLookups);
  const pinCards: PinCards = (student, sessionId, term) =>
    reportCards.card({ id: student.user_id, role: 'student' }, { admission_number: student.admission_number, session_id: sessionId, term });
  // The checked card's PDF is the student's own file: stored once, served by its fingerprint (decision 050).
  const pinCardPdf: PinCardPdf = (card) => cardPdfs.fileOf(card, 'student');
  const resultCheck = new ResultCheckService(
    pinsRepo,
    pinSecrets,
    new AttemptThrottle(accounts, clock),
    settings,
    sessions,
    results,
    peopleLookups,
    pinCards,
    config,
    log,
    clock,
  );

  // Dashboards (issue 36): each home's figures, read from the modules below (the reports' own services).
  const adminDashboard = new AdminDashboardService(
    new AdminDashboardQueries(db),
    calendar,
    sessions,
    teaching,
    reportApprovals,
    feeReports,
    newAccounts,
    auth,
  );

  // Parents (issue 33): the admin's screens, and the parent home whose fee figures are payments' (its `FamilyFees` port).
  const parents = new ParentsService(parentsRepo, parentLinking, teaching, clock);
  const familyFees: FamilyFees = (q) => feesForFamily(paymentsRepo, feeDates, q, broughtForward);
  // The parent home's latest cards pass the fee gate as the cards do: one `answers` call per term of them.
  const familyCardGate: FamilyCardGate = async (cards) => {
    const byTerm = new Map<string, (typeof cards)[number][]>();
    for (const c of cards) byTerm.set(`${c.session.id}/${c.term}`, [...(byTerm.get(`${c.session.id}/${c.term}`) ?? []), c]);
    const answers = await Promise.all(
      [...byTerm.values()].map((group) =>
        cardGate.answers({ session: group[0]!.session, term: group[0]!.term, role: 'parent', students: group.map((c) => c.student) }),
      ),
    );
    return new Set(answers.flatMap((a) => [...a].filter(([, v]) => v.gated).map(([id]) => id)));
  };
  const family = new FamilyService(db, calendar, familyFees, familyCardGate);
  // The student's dashboard (issue 36 item 4): attendance and fees are those screens' own answers, cards pass the gate.
  const studentDashboard = new StudentDashboardService(db, scope, calendar, sessions, settings, cardGate, attendance, statements);
  // Notices (layer 7, docs/decisions/036): the outbox's worker, its channels (fakes outside
  // production, off in production until configured), the inbox and the delivery reports.
  const noticesRepo = new NoticesRepository(db, dialect);
  const noticeChannels = noticeChannelsFor(config.notices);
  const noticeSettings = new NoticeSettingsService(noticesRepo, noticeChannels, now);
  // Notices' content (decision record 037): the school's templates and fee-reminder days, the
  // composer that turns events into messages, the admin's blasts and the daily fee reminders.
  const noticeTemplates = new NoticeTemplatesService(new NoticeTemplatesRepository(db));
  const noticeRecipients = new NoticeRecipientsRepository(db);
  const noticeComposer: NoticeComposer = new NoticeComposerService(noticeRecipients, noticeTemplates, sessionRows, config.publicUrl);
  const noticeBlasts = new NoticeBlastsService(
    new NoticeBlastsRepository(db),
    noticeRecipients,
    noticeTemplates,
    feeReports,
    teaching,
    settings,
    calendar,
    async () => (await noticeSettings.get()).sms_unit_cost_kobo,
  );
  const feeReminders = new FeeRemindersService(
    noticeTemplates,
    feeReports,
    noticeRecipients,
    async () => (await calendar.schoolToday()).today,
    log,
  );
  const noticeDelivery = new NoticeDelivery(noticesRepo, noticeComposer, noticeChannels, noticeSettings, schoolTime, now, log);
  const notices = new NoticesService(noticesRepo, config.notices.webhookSecret, now);
  // Dashboards (issue 36): aggregate reads over the modules below.
  const bursarDashboard = new BursarDashboardService(feeReports, transferReports, calendar, sessions);
  const staffDashboard = new StaffDashboardService(
    new StaffDashboardRepository(db),
    assignments,
    teaching,
    attendance,
    reportApprovals,
    settings,
    calendar,
    sessions,
  );

  return {
    referenceCache,
    cardMemos,
    tokens,
    scope,
    accounts,
    settings,
    sessions,
    schoolTime,
    calendar,
    calendarEdits,
    auth,
    capabilities,
    teaching,
    structure,
    assignments,
    people,
    students,
    staff,
    studentPhotos,
    imports,
    newAccounts,
    attendance,
    registers,
    carriedImport,
    payments,
    banks,
    bursary,
    discounts,
    statements,
    feeReports,
    transferReports,
    grading,
    assessment,
    results,
    reportCards,
    cardPdfs,
    cardGate,
    broadsheets,
    reportApprovals,
    scoreSheets,
    reportSheets,
    reportTerms,
    setup,
    rollover,
    promotion,
    parents,
    family,
    noticeSettings,
    noticeDelivery,
    notices,
    noticeTemplates,
    noticeComposer,
    noticeBlasts,
    feeReminders,
    resultPins,
    resultCheck,
    pinCardPdf,
    bursarDashboard,
    staffDashboard,
    adminDashboard,
    studentDashboard,
  };
}
