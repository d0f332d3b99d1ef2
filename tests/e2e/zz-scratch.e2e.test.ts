import { readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import { launchExtension, SHARED_FIXTURES } from './harness';
import { PdfViewer } from './pages/pdf-viewer';
it('scratch', async () => {
  const b = await launchExtension();
  for (const f of ['qwen3-technical-report.pdf', 'areal-paper.pdf']) {
    const u = `http://fixtures.test/reports/${f}`;
    b.overrideBinary(u, readFileSync(path.join(SHARED_FIXTURES, 'pdfs', f)));
    const v = new PdfViewer(await b.context.newPage(), b.extensionId);
    await v.page.setViewportSize({ width: 1280, height: 1400 });
    await v.open(u);
    await v.waitFor('pdfFirstPageSharpMs');
    await v.page.waitForTimeout(800);
    await v.page.screenshot({ path: `/tmp/scratch/${f}.png` });
  }
  await b.close();
}, 120000);
