import type { ImportFormat } from '../core/management/porting/import-row.js';

/**
 * Each format an import reads, by its product's name and file type (the same in every language):
 * what people call the file they exported, never the API's id (`linklet-json`).
 */
export const IMPORT_FORMAT_NAMES: Record<ImportFormat, string> = {
  'linklet-csv': 'Linklet CSV',
  'linklet-json': 'Linklet JSON',
  'shlink-csv': 'Shlink CSV',
  'dub-csv': 'Dub CSV',
  'sink-json': 'Sink JSON',
  'yourls-csv': 'YOURLS CSV',
  'kutt-json': 'Kutt JSON',
};
