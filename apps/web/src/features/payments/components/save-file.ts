import { downloadBlob } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { errorText } from './payment-history';

/** A download of the payments screens, for a RequestButton: the file fetched and saved as `name`, or the failure as a toast. */
export function useSaveFile() {
  const toast = useToast();
  return (fetchFile: () => Promise<Blob>, name: string) => () =>
    fetchFile().then(
      (blob) => downloadBlob(blob, name),
      (err: unknown) => toast.error(errorText(err)),
    );
}
