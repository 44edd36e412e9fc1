import type {
	ICredentialDataDecryptedObject,
	IHookFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { type CredentialType } from '../credentials/credential-types';
import {
	credentialSecretOf,
	OpenedSecrets,
	openSecret,
	sealSecret,
	TRIGGER_SEAL_INFO,
	type SealKey,
} from './sealed-secret';
import type { SeenEventsData } from './seen-events';
import { credentialTypeOf } from '../credentials/authentication';

type TriggerContext = IHookFunctions | IWebhookFunctions;

/**
 * What the trigger keeps in its node static data (per workflow, so it survives restarts and is
 * shared by every process in queue mode): the endpoint it registered, that endpoint's signing secret
 * sealed with the credential, and the ids of the events it started (seen-events.ts).
 *
 * n8n returns static data to anyone who can read the workflow (n8n 2.41.1's public API includes
 * `staticData` in `GET /api/v1/workflows/{id}`), so the secret is kept only sealed (AES-256-GCM, key
 * by HKDF from the credential's API key or client secret, bound to this workflow and node): who
 * reads the workflow cannot sign deliveries.
 */
export interface TriggerStaticData extends SeenEventsData {
	endpointId?: string;
	sealedSigningSecret?: string;
	/** the secret in clear, as versions before issue 24 kept it: sealed on first use, then removed */
	signingSecret?: string;
	/** the n8n URL the endpoint was registered for (test and production URLs differ) */
	webhookUrl?: string;
}

export function triggerStaticData(
	ctx: Pick<IHookFunctions, 'getWorkflowStaticData'>,
): TriggerStaticData {
	return ctx.getWorkflowStaticData('node') as TriggerStaticData;
}

/** Workflow and node: where the trigger's static data lives (n8n keys it by node name). */
export function triggerPlace(ctx: TriggerContext): string {
	return `${String(ctx.getWorkflow().id ?? '')}\u0000${ctx.getNode().name}`;
}

export function triggerCredentialType(ctx: TriggerContext | IPollFunctions): CredentialType {
	return credentialTypeOf((name, fallback) => ctx.getNodeParameter(name, fallback));
}

/** The key the trigger's signing secret is sealed with, or undefined when the credential has no secret. */
export function triggerSealKey(
	ctx: TriggerContext,
	credentials: ICredentialDataDecryptedObject,
): SealKey | undefined {
	const secret = credentialSecretOf(credentials);
	return secret
		? { credentialSecret: secret, context: triggerPlace(ctx), info: TRIGGER_SEAL_INFO }
		: undefined;
}

/** Keeps a new endpoint's secret, sealed. */
export function keepSigningSecret(data: TriggerStaticData, secret: string, key: SealKey): void {
	data.sealedSigningSecret = sealSecret(secret, key);
	if (data.signingSecret !== undefined) delete data.signingSecret;
}

/**
 * The endpoint's signing secret as the static data holds it, with the credential in use: opened
 * from its seal, or (an endpoint registered by an earlier version) taken in clear and sealed now, so
 * that n8n saves it sealed. `credential_changed`: sealed with a key this credential does not give
 * (its API key or client secret changed, or the data came from another workflow).
 */
export function signingSecretOf(
	data: TriggerStaticData,
	key: SealKey | undefined,
): { secret: string } | { reason: 'no_signing_secret' | 'credential_changed' } {
	if (typeof data.sealedSigningSecret === 'string' && data.sealedSigningSecret) {
		const secret = key && openSecret(data.sealedSigningSecret, key);
		return secret ? { secret } : { reason: 'credential_changed' };
	}
	if (typeof data.signingSecret === 'string' && data.signingSecret) {
		const secret = data.signingSecret;
		if (key) keepSigningSecret(data, secret, key);
		return { secret };
	}
	return { reason: 'no_signing_secret' };
}

/** Secrets the trigger's webhook opened in this process: a burst of deliveries reads the credential once. */
const openedHere = new OpenedSecrets<string>();

/** The signing secret a delivery is verified with (webhook): opened once per process and seal, migrated when still clear. */
export async function deliverySigningSecret(
	ctx: IWebhookFunctions,
): Promise<{ secret: string } | { reason: 'no_signing_secret' | 'credential_changed' }> {
	const data = triggerStaticData(ctx);
	const read = async () =>
		triggerSealKey(
			ctx,
			await ctx.getCredentials<ICredentialDataDecryptedObject>(triggerCredentialType(ctx)),
		);
	const sealed = data.sealedSigningSecret;
	if (typeof sealed !== 'string' || !sealed)
		return signingSecretOf(data, data.signingSecret ? await read() : undefined);
	const secret = await openedHere.open(triggerPlace(ctx), sealed, async () => {
		const opened = signingSecretOf(data, await read());
		return 'secret' in opened ? opened.secret : undefined;
	});
	return secret ? { secret } : { reason: 'credential_changed' };
}
