import { describe, expect, it } from 'vitest';
import { isNonPageFile } from './file-types.js';

describe('isNonPageFile', () => {
  it.each([
    ['/logo.png', true],
    ['/LOGO.JPG', true],
    ['/video.mp4', true],
    ['/dist/app.tar.gz', true],
    ['/setup.exe', true],
    ['/style.css', true],
    ['/report.docx', true],
    ['/manual.pdf', false],
    ['/index.html', false],
    ['/data.json', false],
    ['/feed.xml', false],
    ['/docs/v1.2', false],
    ['/images.png/', false],
    ['/blog', false],
    ['/thumb.png?size=2', true],
  ])('%s → %s', (path, expected) => {
    expect(isNonPageFile(new URL(path, 'https://example.com'))).toBe(expected);
  });
});
