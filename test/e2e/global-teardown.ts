/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { rmSync } from 'node:fs';

import type { Sandbox } from '../../sandbox/server';
import type { FakeOpenAiChat } from '../helpers/fake-openai-chat';

interface Started {
	n8n: { stop(): Promise<void> };
	sandbox: Sandbox;
	fakeOpenAi: FakeOpenAiChat;
	userFolder: string;
	stateFile: string;
}

export default async function globalTeardown(): Promise<void> {
	const started = (globalThis as Record<string, unknown>).__MEDIAGEN_E2E__ as Started | undefined;
	if (!started) return;
	await started.n8n.stop();
	await started.sandbox.close();
	await started.fakeOpenAi.close();
	rmSync(started.userFolder, { recursive: true, force: true });
	rmSync(started.stateFile, { force: true });
}
