import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { productionEnv } from '../../../test/helpers';
import { noticeChannelsFor } from './channels';
import { FakeEmail } from './email.channel';
import { AfricasTalkingSms, FakeSmsProvider, readDeliveryReport, TermiiSms } from './sms.channel';

/** A stand-in for the providers' HTTP APIs: records each request and answers what `next` says. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let base = '';
const seen: Seen[] = [];
let next: (req: Seen, res: ServerResponse) => void = (_req, res) => res.end('{}');

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      next(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const sms = { reference: 'notice-7', to: '+2348031234567', body: 'Results are out', senderId: 'RoyalCol' };
const signal = () => AbortSignal.timeout(500);
const json = (status: number, body: unknown) => (_req: Seen, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('Termii adapter', () => {
  const termii = () => new TermiiSms('termii-key-123', base);

  it('posts the documented JSON (number without +, sender ID, dnd channel, api_key) and reads message_id', async () => {
    next = json(200, { code: 'ok', message_id: '9122821270554876574', message: 'Successfully Sent', balance: 9 });
    expect(await termii().send(sms, signal())).toEqual({ kind: 'accepted', providerMessageId: '9122821270554876574' });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', url: '/api/sms/send' });
    expect(JSON.parse(req.body)).toEqual({
      to: '2348031234567',
      from: 'RoyalCol',
      sms: 'Results are out',
      type: 'plain',
      channel: 'dnd',
      api_key: 'termii-key-123',
    });
  });

  it('a 500 is retried, a 400 is not; a hung provider is unknown; a refused connection is retried', async () => {
    next = json(500, { message: 'down' });
    expect(await termii().send(sms, signal())).toMatchObject({ kind: 'rejected', retryable: true });
    next = json(400, { message: 'Invalid phone' });
    expect(await termii().send(sms, signal())).toMatchObject({ kind: 'rejected', retryable: false });
    next = () => undefined;
    expect(await termii().send(sms, AbortSignal.timeout(50))).toMatchObject({ kind: 'unknown' });
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await new TermiiSms('k', `http://127.0.0.1:${port}`).send(sms, signal())).toMatchObject({ kind: 'rejected', retryable: true });
    // The key never appears in an error kept on the message.
    next = (req, res) => {
      res.writeHead(401);
      res.end(req.body);
    };
    const refused = await termii().send(sms, signal());
    expect(refused.kind).toBe('rejected');
    expect(JSON.stringify(refused)).not.toContain('termii-key-123');
  });

  it('reads its delivery reports', () => {
    expect(TermiiSms.report({ message_id: '91', status: 'DELIVERED' })).toEqual({ providerMessageId: '91', outcome: 'delivered' });
    expect(TermiiSms.report({ message_id: '91', status: 'Message Failed' })).toMatchObject({ outcome: 'failed' });
    expect(TermiiSms.report({ status: 'DELIVERED' })).toBeNull();
  });
});

describe("Africa's Talking adapter", () => {
  const at = () => new AfricasTalkingSms('at-key-456', 'myschool', base);

  it('posts the documented form (username, to, message, from) with the apiKey header and reads Recipients[0]', async () => {
    next = json(201, {
      SMSMessageData: {
        Message: 'Sent to 1/1 Total Cost: NGN 2.2',
        Recipients: [{ statusCode: 101, number: '+2348031234567', status: 'Success', cost: 'NGN 2.2', messageId: 'ATXid_1' }],
      },
    });
    expect(await at().send(sms, signal())).toEqual({ kind: 'accepted', providerMessageId: 'ATXid_1' });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', url: '/version1/messaging' });
    expect(req.headers.apikey).toBe('at-key-456');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      username: 'myschool',
      to: '+2348031234567',
      message: 'Results are out',
      from: 'RoyalCol',
    });
  });

  it('an invalid number (403) is final; insufficient balance (405) is retried', async () => {
    next = json(201, { SMSMessageData: { Recipients: [{ statusCode: 403, status: 'InvalidPhoneNumber' }] } });
    expect(await at().send(sms, signal())).toMatchObject({ kind: 'rejected', retryable: false });
    next = json(201, { SMSMessageData: { Recipients: [{ statusCode: 405, status: 'InsufficientBalance' }] } });
    expect(await at().send(sms, signal())).toMatchObject({ kind: 'rejected', retryable: true });
  });

  it('reads its delivery reports and the sandbox origin', () => {
    expect(AfricasTalkingSms.report({ id: 'ATXid_1', status: 'Success' })).toEqual({ providerMessageId: 'ATXid_1', outcome: 'delivered' });
    expect(AfricasTalkingSms.report({ id: 'ATXid_1', status: 'Failed', failureReason: 'UserInBlacklist' })).toEqual({
      providerMessageId: 'ATXid_1',
      outcome: 'failed',
      error: 'UserInBlacklist',
    });
    expect(readDeliveryReport('africastalking', { id: 'x', status: 'Buffered' })).toMatchObject({ outcome: 'pending' });
  });
});

describe('the fake SMS provider', () => {
  it('answers as scripted and takes a repeated reference once', async () => {
    const fake = new FakeSmsProvider().answer('error', 'reject');
    expect(await fake.send(sms, signal())).toMatchObject({ kind: 'rejected', retryable: true });
    expect(await fake.send(sms, signal())).toMatchObject({ kind: 'rejected', retryable: false });
    expect(await fake.send(sms, signal())).toEqual({ kind: 'accepted', providerMessageId: 'fake-1' });
    expect(await fake.send(sms, signal())).toEqual({ kind: 'accepted', providerMessageId: 'fake-1' });
    expect(fake.sent).toHaveLength(1);
    expect(fake.calls).toBe(4);
  });
});

describe('email through nodemailer', () => {
  it('builds text and escaped HTML, a one-line subject, and answers SMTP refusals by their code', async () => {
    const mail = new FakeEmail('School <noreply@school.test>');
    const sent = await mail.send({ reference: 'notice-3', to: 'ada@test.school', subject: 'Hi\nthere', body: 'a <b>bold</b>\n\nnext' });
    expect(sent.kind).toBe('accepted');
    expect(mail.sent[0]).toMatchObject({
      from: 'noreply@school.test',
      to: 'ada@test.school',
      subject: 'Hi there',
      html: '<p>a &lt;b&gt;bold&lt;/b&gt;</p>\n<p>next</p>',
      messageId: '<notice-3@school.invalid>',
    });
    mail.failing = 'temporary';
    expect(await mail.send({ reference: 'notice-4', to: 'a@b.c', subject: '', body: '' })).toMatchObject({
      kind: 'rejected',
      retryable: true,
    });
    mail.failing = 'permanent';
    expect(await mail.send({ reference: 'notice-4', to: 'a@b.c', subject: '', body: '' })).toMatchObject({
      kind: 'rejected',
      retryable: false,
    });
  });
});

describe('notice channels from the environment', () => {
  it('outside production: fakes by default, the worker on unless NOTICES_WORKER=off', () => {
    const c = loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent' });
    expect(c.notices).toMatchObject({ worker: true, sms: { provider: 'fake' }, email: { transport: 'fake' } });
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), NOTICES_WORKER: 'off' }).notices.worker).toBe(false);
  });

  it('in production a channel is off until configured, the fake is refused, and a provider needs its key', () => {
    const off = loadConfig(productionEnv());
    expect(off.notices).toMatchObject({ sms: null, email: null });
    expect(noticeChannelsFor(off.notices).describe()).toEqual({ sms: { configured: false, provider: null }, email: { configured: false } });
    expect(() => loadConfig(productionEnv({ SMS_PROVIDER: 'fake' }))).toThrow(/SMS_PROVIDER=fake is refused/);
    expect(() => loadConfig(productionEnv({ SMS_PROVIDER: 'termii' }))).toThrow(/needs SMS_API_KEY/);
    expect(() => loadConfig(productionEnv({ SMS_PROVIDER: 'africastalking', SMS_API_KEY: 'k' }))).toThrow(/needs SMS_USERNAME/);
    expect(() => loadConfig(productionEnv({ SMTP_URL: 'smtp://mail.school.ng' }))).toThrow(/needs MAIL_FROM/);
    const on = loadConfig(
      productionEnv({
        SMS_PROVIDER: 'termii',
        SMS_API_KEY: 'k',
        SMS_SENDER_ID: 'RoyalCol',
        SMTP_URL: 'smtp://u:p@mail.school.ng:587',
        MAIL_FROM: 'School <a@school.ng>',
      }),
    );
    const channels = noticeChannelsFor(on.notices);
    expect(channels.describe()).toEqual({ sms: { configured: true, provider: 'termii' }, email: { configured: true } });
    expect(channels.resends('sms')).toBe(false);
    expect(channels.defaultSenderId).toBe('RoyalCol');
    channels.close();
  });
});
