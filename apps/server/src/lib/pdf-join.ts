import { PDFDocument } from 'pdf-lib';
import { yieldToEventLoop } from './yield';

/**
 * Several PDFs as one, their pages in order (an arm's stored report cards as the class PDF, decision
 * 050): pdf-lib copies each file's pages with what they use (fonts, images) into a new document, a
 * turn of the event loop between files, and writes it a slice of objects per turn.
 */
export async function joinPdfs(files: readonly Buffer[], info: { title: string }): Promise<Buffer> {
  const out = await PDFDocument.create({ updateMetadata: false });
  out.setTitle(info.title);
  out.setProducer('School portal');
  out.setCreator('School portal');
  for (const file of files) {
    await yieldToEventLoop();
    const src = await PDFDocument.load(file, { updateMetadata: false });
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  await yieldToEventLoop();
  // No object streams: the pages stay plain objects (as pdfkit writes them), readable by simple tools.
  return Buffer.from(await out.save({ objectsPerTick: 200, useObjectStreams: false }));
}
