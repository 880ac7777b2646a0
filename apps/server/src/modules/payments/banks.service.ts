import { BANK_REFERENCE_MESSAGES, NIGERIAN_BANKS, bankNameKey, findBank, type Bank, type ReferenceReview } from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import type { AuthUser } from '../../http/auth';
import { conflict } from '../../http/errors';
import type { BanksRepository } from './banks.repository';
import { inTransaction } from '../../db/index';

/**
 * The list of banks: the domain's (CBN-licensed banks with their codes) and those the admin adds.
 * A typed name is matched by its key against each name and alias (`findBank`).
 */
export class BanksService {
  constructor(private readonly repo: BanksRepository) {}

  async all(): Promise<Bank[]> {
    const added = (await this.repo.added()).map((b): Bank => ({
      code: b.code,
      name: b.name,
      aliases: JSON.parse(b.aliases) as string[],
      kind: 'added',
    }));
    return [...NIGERIAN_BANKS, ...added];
  }

  /** The bank a typed name means, or undefined when neither list knows it. */
  async resolve(name: string): Promise<Bank | undefined> {
    return findBank(name, NIGERIAN_BANKS) ?? findBank(name, await this.all());
  }

  async add(actor: Pick<AuthUser, 'id'>, input: { code: string; name: string; aliases: string[] }): Promise<Bank> {
    const banks = await this.all();
    const sameCode = banks.find((b) => b.code === input.code);
    if (sameCode) throw conflict(BANK_REFERENCE_MESSAGES.bankCodeTaken(sameCode.name));
    for (const name of [input.name, ...input.aliases]) {
      const same = findBank(name, banks);
      if (same) throw conflict(BANK_REFERENCE_MESSAGES.bankNameTaken(same.name));
    }
    const aliases = [...new Set(input.aliases)].filter((a) => bankNameKey(a) !== bankNameKey(input.name));
    try {
      await inTransaction(this.repo.db, async (trx) => {
        await this.repo.insert(trx, { code: input.code, name: input.name, aliases, addedBy: actor.id });
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'bank.add',
          entity: 'bank',
          entityId: input.code,
          after: { name: input.name, aliases },
        });
      });
    } catch (err) {
      // Two admins adding the same code at once: the primary key decides.
      if (isUniqueViolation(err)) throw conflict(BANK_REFERENCE_MESSAGES.bankCodeTaken(input.name));
      throw err;
    }
    return { code: input.code, name: input.name, aliases, kind: 'added' };
  }

  /** What migration 0020 found recorded twice under the new rule, for the bursar to review (nothing was deleted). */
  async reviews(): Promise<ReferenceReview[]> {
    const { rows, payments, reports } = await this.repo.reviews();
    return rows.map((r) => {
      const payment = r.entity === 'payment';
      const later = payment ? payments.get(r.entity_id) : reports.get(r.entity_id);
      const holder = payment ? payments.get(r.holder_id) : reports.get(r.holder_id);
      return {
        entity: r.entity,
        receipt_number: payment ? (payments.get(r.entity_id)?.receipt_number ?? null) : null,
        report_id: payment ? null : r.entity_id,
        holder_receipt_number: payment ? (payments.get(r.holder_id)?.receipt_number ?? null) : null,
        holder_report_id: payment ? null : r.holder_id,
        bank: later?.bank ?? '',
        bank_reference: later?.bank_reference ?? '',
        holder_bank: holder?.bank ?? '',
        holder_bank_reference: holder?.bank_reference ?? '',
        found_at: r.found_at,
      };
    });
  }
}
