import { PEOPLE_MESSAGES } from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { type DB, inTransaction } from '../../db/index';
import type { AuthUser } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import type { PeopleRepository } from './people.repository';
import { normalisePhoto } from './photo';

/** A student's photo for the report card (admin): normalised on upload, '' removes it; audited. */
export class StudentPhotosService {
  constructor(
    private readonly db: DB,
    private readonly repo: PeopleRepository,
  ) {}

  async put(actor: AuthUser, admissionNumber: string, input: { photo: string }): Promise<{ photo: string }> {
    const student = await this.repo.findStudentByAdmission(admissionNumber.toUpperCase());
    if (!student) throw notFound(PEOPLE_MESSAGES.studentNotFound);
    // Decoded before the transaction opens, so no lock is held while an image is shrunk.
    const result = normalisePhoto(input.photo);
    if (!result.ok) throw badRequest({ photo: [result.message] });
    const photo = result.photo;
    await inTransaction(this.db, async (trx) => {
      const before = await this.repo.hasPhoto(trx, student.id);
      await this.repo.putPhoto(trx, student.id, photo, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: photo ? 'update' : 'delete',
        entity: 'student_photo',
        entityId: student.admission_number,
        // The image itself is not copied into the log.
        before: { photo: before ? '[image]' : '' },
        after: { photo: photo ? '[image]' : '' },
      });
    });
    return { photo };
  }
}
