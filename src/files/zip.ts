/**
 * A zip archive's entries, read from its central directory with yauzl: the file is read where the directory is,
 * never loaded whole, whatever its size.
 */
import yauzl from 'yauzl';

/** Entries listed at most; the rest are counted. */
const MAX_ENTRIES = 300;

export interface ZipListing {
  entries: Array<{ name: string; bytes: number }>;
  total: number;
}

export function listZip(path: string): Promise<ZipListing> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: false }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip archive'));
      const entries: ZipListing['entries'] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entries.length < MAX_ENTRIES) entries.push({ name: entry.fileName, bytes: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve({ entries, total: zip.entryCount }));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
