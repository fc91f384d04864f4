export { discoverFiles, type DiscoverOptions, type DiscoverResult } from './discover-files.js';
export { createPathFilter, DEFAULT_IGNORED_DIRS, type PathFilter, type PathFilterOptions } from './path-filter.js';
export { inspectFile, skipReasonForName, DEFAULT_MAX_FILE_BYTES, type InspectOptions, type InspectResult } from './file-guards.js';
export { detectLanguage, extensionOf } from './languages-by-extension.js';
