/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// n8n-core reads its instance settings from the environment when first loaded: give every test
// worker its own throw-away user folder and a fixed encryption key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mediagen-n8n-'));
process.env.N8N_ENCRYPTION_KEY ??= 'mediagen-test-encryption-key';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n-core logs every failed node run through its winston console logger; the tests that make runs
// fail assert the error themselves, so the log lines are noise (144 blocks in a unit run).
process.env.N8N_LOG_LEVEL ??= 'silent';
