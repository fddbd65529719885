/**
 * Links a crawl does not follow because they name a file that is not a page: the pipeline
 * converts HTML, PDF, plain text, JSON and XML (core/html/content-type.ts) and nothing else, and
 * fetching a video to throw it away costs the target and us bandwidth. Decided from the extension
 * of the last path segment, case-insensitively, before any fetch; a page that is served without
 * such an extension is still checked by its Content-Type when fetched.
 *
 * Not listed, so followed: .html .htm .php .asp(x) .jsp, .pdf (converted to text), .txt .md
 * .json .xml .csv .rss .atom, and no extension at all.
 */
const NOT_PAGES = [
  // images
  'jpg', 'jpeg', 'jpe', 'png', 'gif', 'webp', 'avif', 'svg', 'svgz', 'ico', 'bmp', 'tif', 'tiff', 'heic', 'heif', 'jxl', 'psd',
  // audio and video
  'mp3', 'mp4', 'm4a', 'm4v', 'wav', 'ogg', 'oga', 'ogv', 'opus', 'webm', 'mov', 'avi', 'mkv', 'flac', 'aac', 'wmv', 'wma',
  'mpg', 'mpeg', '3gp', 'flv', 'm3u8',
  // archives and disk images
  'zip', 'tar', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'zst', 'lz', 'lzma', 'cab', 'iso', 'img', 'dmg',
  // programs and packages
  'exe', 'msi', 'pkg', 'deb', 'rpm', 'apk', 'ipa', 'bin', 'jar', 'war', 'appimage', 'wasm',
  // fonts, stylesheets, scripts, source maps
  'woff', 'woff2', 'ttf', 'otf', 'eot', 'css', 'js', 'mjs', 'map',
  // office documents and e-books (not converted; PDF is)
  'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'epub', 'mobi',
  // other binary formats
  'swf', 'ics', 'vcf', 'torrent',
];

const notPages = new Set(NOT_PAGES);

/** Whether the URL's path names a file that is not a page (see the list above). */
export function isNonPageFile(url: URL): boolean {
  const ext = /\.([a-z0-9]{1,10})$/i.exec(url.pathname)?.[1];
  return ext !== undefined && notPages.has(ext.toLowerCase());
}
