import type { Migration, MigrationProvider } from 'kysely';
import { foundation } from './0001_foundation';
import { people } from './0002_people';
import { results } from './0003_results';
import { payments } from './0004_payments';
import { indexes } from './0005_indexes';
import { feesItems } from './0008_fees_items';
import { inputLogos } from './0010_input_logos';
import { resultsSessionScales } from './0011_results_session_scales';
import { screensSettings } from './0012_screens_settings';
import { peopleStudentStatus } from './0013_people_student_status';
import { teachingStructure } from './0014_teaching_structure';
import { assessmentComponents } from './0015_assessment_components';
import { reportCards } from './0016_report_cards';
import { attendance } from './0017_attendance';
import { bursary } from './0018_bursary';
import { bursaryOffice } from './0019_bursary_office';
import { bankReferenceKeys } from './0020_bank_reference_keys';
import { feeDueDates } from './0021_fee_due_dates';
import { classNameReferences } from './0022_class_name_references';
import { signInAdmissionKey } from './0024_sign_in_admission_key';
import { usersEmailOptional } from './0025_users_email_optional';
import { idempotencyKeys } from './0028_idempotency_keys';
import { paymentSessionIds } from './0030_payment_session_ids';
import { oneTermTable } from './0031_one_term_table';
import { parents } from './0032_parents';
import { notices } from './0033_notices';
import { noticeTemplatesBlasts } from './0034_notice_templates_blasts';
import { studentEnrolments } from './0035_student_enrolments';
import { promotionRuns } from './0036_promotion_runs';
import { arrears } from './0038_arrears';
import { cardFeeReleases } from './0039_card_fee_releases';
import { resultPins } from './0040_result_pins';
import { transferWaitingIndex } from './0042_transfer_waiting_index';
import { tableChangeNotices } from './0044_table_change_notices';
import { reportCardPdfs } from './0045_report_card_pdfs';
import { cardChangeNotices } from './0046_card_change_notices';
import { sessionReportSettings } from './0047_session_report_settings';
import type { Dialect, DialectMigration } from './util';

/** The ordered list of migrations; names never change once released. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_foundation': foundation,
  '0002_people': people,
  '0003_results': results,
  '0004_payments': payments,
  '0005_indexes': indexes,
  '0008_fees_items': feesItems,
  '0010_input_logos': inputLogos,
  '0011_results_session_scales': resultsSessionScales,
  '0012_screens_settings': screensSettings,
  '0013_people_student_status': peopleStudentStatus,
  '0014_teaching_structure': teachingStructure,
  '0015_assessment_components': assessmentComponents,
  '0016_report_cards': reportCards,
  '0017_attendance': attendance,
  '0018_bursary': bursary,
  '0019_bursary_office': bursaryOffice,
  '0020_bank_reference_keys': bankReferenceKeys,
  '0021_fee_due_dates': feeDueDates,
  '0022_class_name_references': classNameReferences,
  '0024_sign_in_admission_key': signInAdmissionKey,
  '0025_users_email_optional': usersEmailOptional,
  '0028_idempotency_keys': idempotencyKeys,
  '0030_payment_session_ids': paymentSessionIds,
  '0031_one_term_table': oneTermTable,
  '0032_parents': parents,
  '0033_notices': notices,
  '0034_notice_templates_blasts': noticeTemplatesBlasts,
  '0035_student_enrolments': studentEnrolments,
  '0036_promotion_runs': promotionRuns,
  '0038_arrears': arrears,
  '0039_card_fee_releases': cardFeeReleases,
  '0040_result_pins': resultPins,
  '0042_transfer_waiting_index': transferWaitingIndex,
  '0044_table_change_notices': tableChangeNotices,
  '0045_report_card_pdfs': reportCardPdfs,
  '0046_card_change_notices': cardChangeNotices,
  '0047_session_report_settings': sessionReportSettings,
};

/** The newest migration this build knows: readiness checks that the database has it. */
export const LATEST_MIGRATION = Object.keys(MIGRATIONS).sort().at(-1)!;

export class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) out[name] = m(this.dialect);
    return Promise.resolve(out);
  }
}
