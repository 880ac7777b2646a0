import type { AdmissionPage } from '@portal/domain/admission-constants';
import { publicDocument } from './public-document';

/** The public admission page's text: read by /admission, written by the admin's settings screen. */
const admissionPage = publicDocument<AdmissionPage>('admission-page', '/admission/');
export const admissionPageQuery = admissionPage.query;
export const useAdmissionPage = admissionPage.useRead;
export const useSaveAdmissionPage = admissionPage.useSave;
