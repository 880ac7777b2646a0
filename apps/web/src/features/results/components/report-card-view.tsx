/** The card's view is shared (components/school): the public PIN check shows the same card. */
export { ReportCardView } from '../../../components/school/report-card-view';
