// One file (about 430 lines): one service class, the admin's teaching structure (arms, catalogue,
// offerings, streams, students' subject choices), each action a check, one transaction and its audit.
import {
  classLevelOf,
  sectionAllows,
  scoreWriteRefusal,
  studentSubjectIds,
  TEACHING_MESSAGES,
  termLabel,
  armName,
  PEOPLE_MESSAGES,
  type ClassArm,
  type ClassLevel,
  type CatalogueSubject,
  type LevelOffering,
  type Stream,
  type StudentSubjectsAccess,
  type StudentSubjects,
  type SubjectSection,
  type TeachingStructure,
  type Term,
} from '@portal/domain';
import type { z } from 'zod';
import type {
  armCreateSchema,
  armPatchSchema,
  offeringsSchema,
  streamSchema,
  SubjectOfferingsInput,
  studentSubjectsSchema,
  subjectCreateSchema,
  subjectPatchSchema,
} from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import type { DB } from '../../db/index';
import type { PeopleLookups, StudentRef } from '../people/people.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { SettingsService } from '../settings/settings.service';

/** The settings module's step when a subject is renamed: the promotion rule names subjects too. */
type RequiredSubjectsRename = Pick<SettingsService, 'renameRequiredSubjectIn'>;
import { presentArm, presentOfferings, presentStreams, presentSubject } from './teaching.presenters';
import type { TeachingRepository } from './teaching.repository';
import type { TeachingService } from './teaching.service';
import { isUniqueViolation } from '../../db/errors';
import { resolveSession } from './teaching.shared';

type ArmPatch = z.infer<typeof armPatchSchema>;
type SubjectPatch = z.infer<typeof subjectPatchSchema>;

/**
 * The admin's structure screens: arms, the subject catalogue, what each level offers, streams, and
 * one student's subjects. Every write runs in one transaction with its audit row.
 */
export class StructureService {
  constructor(
    private readonly db: DB,
    private readonly repo: TeachingRepository,
    private readonly teaching: TeachingService,
    private readonly people: PeopleLookups,
    private readonly sessions: SessionsService,
    private readonly reportSettings: RequiredSubjectsRename,
  ) {}

  // ---- arms -----------------------------------------------------------------------------------

  async classes(): Promise<ClassArm[]> {
    return (await this.repo.arms()).map(presentArm);
  }

  private async armOut(id: number, conn: Parameters<TeachingRepository['arms']>[0]): Promise<ClassArm> {
    const row = (await this.repo.arms(conn)).find((a) => a.id === id)!;
    return presentArm(row);
  }

  async createArm(actor: AuthUser, input: z.infer<typeof armCreateSchema>): Promise<ClassArm> {
    const name = armName(input.level, input.arm);
    const taken = () => badRequest({ arm: [TEACHING_MESSAGES.armTaken(name)] });
    try {
      return await this.repo.transaction(async (trx) => {
        if (await this.repo.armByName(name, trx)) throw taken();
        const id = await this.repo.insertArm(trx, { level: input.level, arm: armLabel(input.arm), name });
        const out = await this.armOut(id, trx);
        await writeAudit(trx, { actorUserId: actor.id, action: 'create', entity: 'class_arm', entityId: id, after: out });
        return out;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  }

  async patchArm(actor: AuthUser, id: number, input: ArmPatch): Promise<ClassArm> {
    let newName = '';
    try {
      return await this.repo.transaction(async (trx) => {
        const before = await this.repo.armById(id, trx);
        if (!before) throw notFound(TEACHING_MESSAGES.armNotFound);
        if (input.arm !== undefined) {
          newName = armName(before.level as ClassLevel, input.arm);
          if (newName !== before.name) {
            const other = await this.repo.armByName(newName, trx);
            if (other && other.id !== id) throw badRequest({ arm: [TEACHING_MESSAGES.armTaken(newName)] });
            await this.repo.renameArm(trx, id, { arm: armLabel(input.arm), name: newName });
          }
        }
        if (input.retired !== undefined && input.retired !== (Number(before.retired) === 1)) {
          if (input.retired) {
            const name = newName || before.name;
            const n = await this.repo.activeStudentsIn(name, trx);
            if (n > 0) throw badRequest({ retired: [TEACHING_MESSAGES.armHasStudents(name, n)] });
          }
          await this.repo.setArmRetired(trx, id, input.retired);
        }
        const after = await this.armOut(id, trx);
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'update',
          entity: 'class_arm',
          entityId: id,
          before: presentArm(before),
          after,
        });
        return after;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest({ arm: [TEACHING_MESSAGES.armTaken(newName)] });
      throw err;
    }
  }

  // ---- subjects -------------------------------------------------------------------------------

  async subjects(): Promise<CatalogueSubject[]> {
    return (await this.repo.subjects()).map(presentSubject);
  }

  /** 400 on name or code when another subject already has it (names compare without case). */
  private async assertSubjectFree(
    v: { name?: string; code?: string },
    exceptId: number | null,
    conn: Parameters<TeachingRepository['subjects']>[0],
  ) {
    const clashes = await this.repo.subjectClash(v, exceptId, conn);
    const errors: Record<string, string[]> = {};
    if (v.name !== undefined && clashes.some((c) => c.name.toLowerCase() === v.name!.toLowerCase()))
      errors.name = [TEACHING_MESSAGES.subjectNameTaken(v.name)];
    if (v.code !== undefined && clashes.some((c) => c.code === v.code)) errors.code = [TEACHING_MESSAGES.subjectCodeTaken(v.code)];
    if (Object.keys(errors).length) throw badRequest(errors);
  }

  async createSubject(actor: AuthUser, input: z.infer<typeof subjectCreateSchema>): Promise<CatalogueSubject> {
    return this.uniqueSubject(input, () =>
      this.repo.transaction(async (trx) => {
        await this.assertSubjectFree(input, null, trx);
        const id = await this.repo.insertSubject(trx, input);
        const out = presentSubject((await this.repo.subjectById(id, trx))!);
        await writeAudit(trx, { actorUserId: actor.id, action: 'create', entity: 'subject', entityId: id, after: out });
        return out;
      }),
    );
  }

  async patchSubject(actor: AuthUser, id: number, input: SubjectPatch): Promise<CatalogueSubject> {
    return this.uniqueSubject(input, () =>
      this.repo.transaction(async (trx) => {
        const before = await this.repo.subjectById(id, trx);
        if (!before) throw notFound(TEACHING_MESSAGES.subjectNotFound);
        const name = input.name !== undefined && input.name !== before.name ? input.name : undefined;
        const code = input.code !== undefined && input.code !== before.code ? input.code : undefined;
        await this.assertSubjectFree({ name, code }, id, trx);
        if (input.section !== undefined && input.section !== before.section) {
          const level = (await this.repo.levelsOffering(id, trx)).find((l) => !sectionAllows(input.section!, l as ClassLevel));
          if (level) throw badRequest({ section: [TEACHING_MESSAGES.subjectSectionInUse(before.name, level)] });
        }
        await this.repo.updateSubject(trx, id, {
          ...(name !== undefined ? { name } : {}),
          ...(code !== undefined ? { code } : {}),
          ...(input.section !== undefined ? { section: input.section } : {}),
          ...(input.retired !== undefined ? { retired: input.retired ? 1 : 0 } : {}),
        });
        const renamed = name !== undefined ? await this.repo.renameSubjectInResults(trx, before.name, name) : 0;
        if (name !== undefined) await this.reportSettings.renameRequiredSubjectIn(trx, actor.id, before.name, name);
        const after = presentSubject((await this.repo.subjectById(id, trx))!);
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'update',
          entity: 'subject',
          entityId: id,
          before: presentSubject(before),
          after: { ...after, ...(name !== undefined ? { results_renamed: renamed } : {}) },
        });
        return after;
      }),
    );
  }

  /** A unique violation that slipped past the check (two admins at once) is still a clear 400. */
  private async uniqueSubject<T>(input: { name?: string; code?: string }, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (isUniqueViolation(err, 'code') && input.code) throw badRequest({ code: [TEACHING_MESSAGES.subjectCodeTaken(input.code)] });
      throw badRequest({ name: [TEACHING_MESSAGES.subjectNameTaken(input.name ?? '')] });
    }
  }

  // ---- structure, offerings, streams ----------------------------------------------------------

  async structure(): Promise<TeachingStructure> {
    const [arms, subjects, offerings, streams, links] = await Promise.all([
      this.repo.arms(),
      this.repo.subjects(),
      this.repo.offerings(),
      this.repo.streams(),
      this.repo.streamSubjects(),
    ]);
    const order = new Map(subjects.map((s, i) => [s.id, i]));
    return {
      arms: arms.map(presentArm),
      subjects: subjects.map(presentSubject),
      offerings: presentOfferings(offerings, order),
      streams: presentStreams(streams, links),
    };
  }

  /**
   * Checks subject ids sent in a list: each must be in the catalogue and, when `level` is given, of
   * a section that level may offer. Errors are keyed by the list's path (`subjects.2.subject_id`).
   */
  private async assertSubjects(
    ids: readonly number[],
    key: (i: number) => string,
    level: ClassLevel | 'SSS' | null,
    conn: Parameters<TeachingRepository['subjects']>[0],
  ): Promise<void> {
    const found = new Map((await this.repo.subjectsByIds(ids, conn)).map((s) => [s.id, s]));
    const errors: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      const s = found.get(id);
      if (!s) errors[key(i)] = [TEACHING_MESSAGES.subjectNotFound];
      else if (level && !sectionAllows(s.section as SubjectSection, level === 'SSS' ? 'SSS 1' : level))
        errors[key(i)] = [TEACHING_MESSAGES.subjectNotForLevel(s.name, level)];
    });
    if (Object.keys(errors).length) throw badRequest(errors);
  }

  async putOfferings(actor: AuthUser, level: ClassLevel, input: z.infer<typeof offeringsSchema>): Promise<LevelOffering> {
    return this.repo.transaction(async (trx) => {
      await this.assertSubjects(
        input.subjects.map((s) => s.subject_id),
        (i) => `subjects.${i}.subject_id`,
        level,
        trx,
      );
      // The last entry for a subject wins when one is sent twice.
      const rows = [...new Map(input.subjects.map((s) => [s.subject_id, s])).values()];
      const [subjects, before] = await Promise.all([this.repo.subjects(trx), this.repo.offerings(trx)]);
      const order = new Map(subjects.map((s, i) => [s.id, i]));
      await this.repo.replaceOfferings(trx, level, rows);
      const out = presentOfferings(await this.repo.offerings(trx), order).find((o) => o.class_level === level)!;
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'update',
        entity: 'level_subjects',
        entityId: level,
        before: presentOfferings(before, order).find((o) => o.class_level === level),
        after: out,
      });
      return out;
    });
  }

  /**
   * One subject's offering at several class levels in one call (the offerings screen's "set a
   * column"), all or nothing: every level is checked before anything is written, in one transaction,
   * audited once with the subject's offerings before and after.
   */
  async putSubjectOfferings(actor: AuthUser, subjectId: number, input: SubjectOfferingsInput): Promise<LevelOffering[]> {
    return this.repo.transaction(async (trx) => {
      const [subject] = await this.repo.subjectsByIds([subjectId], trx);
      if (!subject) throw notFound(TEACHING_MESSAGES.subjectNotFound);
      if (input.offering !== 'none') {
        if (subject.retired) throw badRequest({ subject_id: [TEACHING_MESSAGES.subjectRetired(subject.name)] });
        const refused: string[] = [];
        for (const level of input.levels) {
          if (!sectionAllows(subject.section as SubjectSection, level))
            refused.push(TEACHING_MESSAGES.subjectNotForLevel(subject.name, level));
          else if (input.offering === 'stream' && !level.startsWith('SSS'))
            refused.push(TEACHING_MESSAGES.streamOfferingSenior(subject.name, level));
        }
        if (refused.length) throw badRequest({ levels: refused });
      }
      const [subjects, before] = await Promise.all([this.repo.subjects(trx), this.repo.offerings(trx)]);
      const order = new Map(subjects.map((s, i) => [s.id, i]));
      // Elective and stream are stored alike: offered, not compulsory (the stream's list gives it).
      await this.repo.setSubjectOffering(trx, subjectId, input.levels, input.offering === 'none' ? null : input.offering === 'compulsory');
      const out = presentOfferings(await this.repo.offerings(trx), order);
      const ofSubject = (offerings: LevelOffering[]) =>
        Object.fromEntries(
          offerings.map((o) => {
            const x = o.subjects.find((s) => s.subject_id === subjectId);
            return [o.class_level, x ? (x.compulsory ? 'compulsory' : 'not compulsory') : 'none'];
          }),
        );
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'update',
        entity: 'level_subjects',
        entityId: subject.name,
        before: ofSubject(presentOfferings(before, order)),
        after: { ...ofSubject(out), set: input.offering, levels: input.levels },
      });
      return out;
    });
  }

  private async streamOut(id: number, conn: Parameters<TeachingRepository['subjects']>[0]): Promise<Stream> {
    const row = (await this.repo.streamById(id, conn))!;
    return { id: row.id, name: row.name, subject_ids: await this.repo.streamSubjectIds(id, conn) };
  }

  async saveStream(actor: AuthUser, id: number | null, input: z.infer<typeof streamSchema>): Promise<Stream> {
    const taken = () => badRequest({ name: [TEACHING_MESSAGES.streamNameTaken(input.name)] });
    try {
      return await this.repo.transaction(async (trx) => {
        const before = id === null ? undefined : await this.repo.streamById(id, trx);
        if (id !== null && !before) throw notFound(TEACHING_MESSAGES.streamNotFound);
        const other = await this.repo.streamByName(input.name, trx);
        if (other && other.id !== id) throw taken();
        await this.assertSubjects(input.subject_ids, (i) => `subject_ids.${i}`, 'SSS', trx);
        const beforeOut = id === null ? undefined : await this.streamOut(id, trx);
        const streamId = id ?? (await this.repo.insertStream(trx, input.name));
        await this.repo.saveStream(trx, streamId, input.name, input.subject_ids);
        const out = await this.streamOut(streamId, trx);
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: id === null ? 'create' : 'update',
          entity: 'stream',
          entityId: streamId,
          before: beforeOut,
          after: out,
        });
        return out;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  }

  async deleteStream(actor: AuthUser, id: number): Promise<void> {
    await this.repo.transaction(async (trx) => {
      if (!(await this.repo.streamById(id, trx))) throw notFound(TEACHING_MESSAGES.streamNotFound);
      const before = await this.streamOut(id, trx);
      await this.repo.deleteStream(trx, id);
      await writeAudit(trx, { actorUserId: actor.id, action: 'delete', entity: 'stream', entityId: id, before });
    });
  }

  // ---- one student's subjects -----------------------------------------------------------------

  private async student(admissionNumber: string, conn?: Parameters<TeachingRepository['subjects']>[0]): Promise<StudentRef> {
    const s = await this.people.studentByAdmission(admissionNumber, conn);
    if (!s) throw notFound(PEOPLE_MESSAGES.studentNotFound);
    return s;
  }

  private async studentSubjectsOf(s: StudentRef, conn?: Parameters<TeachingRepository['subjects']>[0]): Promise<StudentSubjects> {
    const [plan, choices] = await Promise.all([this.repo.subjectPlan(conn), this.repo.studentChoices([s.id], conn)]);
    const c = choices.get(s.id) ?? { stream_id: null, add: [], drop: [] };
    const ids = studentSubjectIds(plan, { class_level: classLevelOf(s.student_class), ...c });
    return {
      admission_number: s.admission_number,
      student_class: s.student_class,
      stream_id: c.stream_id,
      add: [...c.add].sort((a, b) => a - b),
      drop: [...c.drop].sort((a, b) => a - b),
      subjects: ids.map((id) => plan.names.get(id)!),
    };
  }

  /** A student's subjects, and which of them the caller may write scores for in that session and term now. */
  async studentSubjects(actor: AuthUser, admissionNumber: string, q: { session_id?: number; term?: Term }): Promise<StudentSubjectsAccess> {
    const s = await this.student(admissionNumber);
    const session = await resolveSession(this.sessions, q.session_id);
    const term = q.term ?? '1st';
    const out = await this.studentSubjectsOf(s);
    const access = session
      ? await this.teaching.writeAccess(actor, session.id, term)
      : { current: true, enforced: false, pairs: new Set<string>(), windows: new Map<string, boolean>() };
    const writable: string[] = [];
    let refusal: string | null = null;
    for (const subject of out.subjects) {
      const r = scoreWriteRefusal(actor.role, access, { student_class: s.student_class, subject, termLabel: termLabel(term) });
      if (r) refusal ??= r.detail;
      else writable.push(subject);
    }
    return { ...out, session_id: session?.id ?? null, term, writable, refusal };
  }

  async putStudentSubjects(
    actor: AuthUser,
    admissionNumber: string,
    input: z.infer<typeof studentSubjectsSchema>,
  ): Promise<StudentSubjects> {
    return this.repo.transaction(async (trx) => {
      const s = await this.student(admissionNumber, trx);
      const level = classLevelOf(s.student_class);
      if (input.stream_id !== null) {
        if (!level?.startsWith('SSS')) throw badRequest({ stream_id: [TEACHING_MESSAGES.streamOnlySenior] });
        if (!(await this.repo.streamById(input.stream_id, trx))) throw badRequest({ stream_id: [TEACHING_MESSAGES.streamNotFound] });
      }
      await this.assertSubjects(input.add, (i) => `add.${i}`, level, trx);
      await this.assertSubjects(input.drop, (i) => `drop.${i}`, null, trx);
      const drop = [...new Set(input.drop)];
      // Drop wins over add for the same subject, as in the derivation.
      const add = [...new Set(input.add)].filter((id) => !drop.includes(id));
      const before = await this.studentSubjectsOf(s, trx);
      await this.repo.saveStudentChoices(trx, s.id, { stream_id: input.stream_id, add, drop });
      const after = await this.studentSubjectsOf(s, trx);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'update',
        entity: 'student_subjects',
        entityId: s.admission_number,
        before,
        after,
      });
      return after;
    });
  }
}

/** Arm labels are stored as typed, except a single letter, which is upper case like the class name. */
function armLabel(arm: string): string {
  const label = arm.trim();
  return label.length === 1 ? label.toUpperCase() : label;
}
