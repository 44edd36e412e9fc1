/**
 * The catalog: one typed entry per endpoint of the Media Generation Service API. Nodes build their
 * parameters from it, the shared executor sends requests from it, and the README table and coverage
 * tests are generated from it. The sandbox does not read it: it keeps its own endpoint table, so that
 * it stays a second opinion on the API document.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Capability =
	| 'image_generation'
	| 'video_generation'
	| 'speech_generation'
	| 'music_generation'
	| 'sound_effect_generation'
	| 'transcription'
	| 'image_editing'
	| 'video_upscaling'
	| 'image_upscaling'
	| 'lipsync_generation'
	| 'model_3d_generation'
	| 'game_generation'
	| 'app_generation'
	| 'faceless_reel_generation';

export type NodeName =
	| 'MediaGenImage'
	| 'MediaGenVideo'
	| 'MediaGenAudio'
	| 'MediaGenLipSync'
	| 'MediaGenModel3D'
	| 'MediaGenProduct'
	| 'MediaGenWorkflow'
	| 'MediaGenBatch'
	| 'MediaGenRun'
	| 'MediaGenAccount'
	| 'MediaGenProducer'
	| 'MediaGenLibrary';

/**
 * A check of a parameter against the selected model's `limits`. A rule whose limits key is absent
 * on the model checks nothing: the node never invents a limit the service did not report.
 */
export type LimitRule =
	/** value must be one of `limits[key]` (an array) or equal to it (a scalar); first key present wins */
	| { kind: 'oneOf'; keys: string[] }
	/** number must be <= limits[key] */
	| { kind: 'max'; keys: string[] }
	/** number must be >= limits[key] */
	| { kind: 'min'; keys: string[] }
	/** string length must be <= limits[key] */
	| { kind: 'maxLength'; keys: string[] }
	/** array length must be <= limits[key] */
	| { kind: 'maxItems'; keys: string[] }
	/** number within limits[minKey] .. limits[maxKey]; either bound alone applies when only it is present */
	| { kind: 'range'; minKeys: string[]; maxKeys: string[] }
	/** limits[key] is an object {min, max}: a number, or an array's length, must lie within it */
	| { kind: 'between'; keys: string[] }
	/** array of objects: the number of distinct `property` values must be <= limits[key] (e.g. voices of a dialogue) */
	| { kind: 'maxDistinct'; keys: string[]; property: string }
	/** array of objects: the summed length of their `property` strings must be <= limits[key] */
	| { kind: 'maxTotalLength'; keys: string[]; property: string }
	/** every rule applies (each only when its own key is present) */
	| { kind: 'all'; rules: LimitRule[] }
	/** a boolean switched on needs limits[key] true (false there: the model has no such switch) */
	| { kind: 'switch'; keys: string[] };

export type FieldType =
	| 'string'
	| 'text'
	| 'number'
	| 'integer'
	| 'boolean'
	| 'options'
	| 'multiOptions'
	| 'stringList'
	| 'json'
	/** a URL the service fetches; the node also accepts an input binary property, uploaded first */
	| 'media'
	/** a list of such URLs (or binary properties) */
	| 'mediaList'
	/** a list of objects, each with the fields in `items` (n8n: a fixed collection with multiple values) */
	| 'objectList';

export interface FieldSpec {
	/** the API's name for it (body key, query key or path placeholder) */
	name: string;
	/** the n8n parameter's name when it is not the camelCase of `name` (kept so saved workflows still load) */
	param?: string;
	displayName: string;
	type: FieldType;
	/**
	 * where it travels; default: path if the path has {name}, query for GET/DELETE, body otherwise.
	 * 'node': a setting of the node itself (e.g. which binary field to upload), never sent.
	 */
	in?: 'body' | 'query' | 'path' | 'node';
	required?: boolean;
	/** shown at the top level although optional (otherwise optional fields go in "Additional Fields") */
	primary?: boolean;
	default?: string | number | boolean | string[];
	description?: string;
	placeholder?: string;
	/** fixed choices */
	options?: Array<{ name: string; value: string | number; description?: string }>;
	/** choices read from the selected model's limits (dropdown) and checked against them */
	limit?: LimitRule;
	min?: number;
	max?: number;
	/** a JSON object whose keys are merged into the body (e.g. the parameters of an estimate) */
	spread?: boolean;
	/** a fixed format the value must have (checked before sending) */
	format?: 'url';
	/** a pattern a string value must match, and the allowed values in words (checked before sending) */
	pattern?: { regex: string; allowed: string };
	/**
	 * Model `limits` keys bounding a media file's size (MB) and length (seconds). Checked on input
	 * binaries, whose bytes the node has; a URL's file is the service's to check.
	 */
	fileLimits?: { maxMb?: string[]; maxSeconds?: string[]; minSeconds?: string[] };
	/** a model `capabilities` flag this field needs: refused where the model reports it false */
	needs?: string;
	/** a model `capabilities` flag that makes this field required where the model reports it true */
	requiredBy?: string;
	/** dropdown loaded from a list endpoint of the API (e.g. voices from GET /audio/voices) */
	optionsFrom?: { path: string };
	/** dropdown loaded by a named loadOptions method of the nodes (e.g. only ready influencers) */
	loadOptions?: string;
	/** for 'objectList': the fields of one entry, and what one entry is called */
	items?: FieldSpec[];
	itemName?: string;
}

/** Wait Mode "In This Execution": the running execution polls until the runs finish. */
export const IN_EXECUTION = 'inExecution';
/**
 * Wait Mode "Pause the Execution": paused until the service says the runs finished. The value is
 * what workflows have saved since the mode was added (its first name); the code calls it pause.
 */
export const PAUSE = 'parked';

/** Where a wait happens: in the running execution (polling), or with the execution paused until the service calls back. */
export type WaitMode = typeof IN_EXECUTION | typeof PAUSE;

/** How a response is read into n8n items. */
export type OutputKind =
	/** a generating submit: 202 + Run; the node may wait for it and download its files */
	| 'run'
	/** a single JSON object */
	| 'object'
	/** `{object:'list', data, has_more}`: one item per element, with Return All / Limit */
	| 'list'
	/** no body (e.g. DELETE): the node returns `{ deleted: true, id }` */
	| 'empty'
	/** a Batch (plus its items): the node may wait for it and emit one item per batch item */
	| 'batch';

export interface Endpoint {
	method: HttpMethod;
	/** relative to the base URL (which ends in /v1) */
	path: string;
	/** scope the key needs; null where the spec names none */
	scope: string | null;
	/**
	 * 'required': the document marks Idem; 'sent': unspecified there, the node sends one and relies on
	 * it (decisions.md, draft to final); 'courtesy': a generating POST the document marks Idem = no —
	 * the node sends a key (harmless where ignored) but never relies on it: no automatic resend after
	 * a lost answer, and a retry whose first submit may have been accepted is refused; 'none'.
	 */
	idempotency: 'required' | 'sent' | 'courtesy' | 'none';
	auth: 'bearer' | 'none';
	/** the node operation that reaches it */
	node: NodeName;
	resource: string;
	operation: string;
	/** operation name in the UI, e.g. "Generate" */
	name: string;
	/** n8n "action" label, e.g. "Generate an image" */
	action: string;
	description: string;
	/** model dropdown for this capability; the run's limits are checked against the chosen model */
	capability?: Capability;
	fields: FieldSpec[];
	output: OutputKind;
	/** whether the route accepts team_id / project_id (it refuses them with a 400 otherwise) */
	teamBilling?: boolean;
	projectFiling?: boolean;
	/** at least one of these fields must be set (e.g. text or dialogue), checked before sending */
	requireOneOf?: string[];
	/**
	 * Node-specific behaviour the shared executor lacks (a batch from all input items, the PKCE
	 * verifier, a workflow's output fields): the key of an entry in `src/runs/custom-operations.ts`.
	 */
	custom?: string;
	/**
	 * An Estimate Cost operation: the key of the generating operation it prices (its fields are that
	 * operation's; the panel shows them once for both).
	 */
	estimates?: string;
	/**
	 * runs a failed job again (a batch item's Retry): it spends as a submit does, so budgets price it
	 * before it is sent
	 */
	rerun?: true;
	/** the operation is itself a wait (e.g. Run → Wait for Completion): no "Wait for Completion" toggle */
	alwaysWaits?: boolean;
	/**
	 * How the node waits for this operation's runs unless the user picks otherwise (Wait Mode):
	 * PAUSE pauses the execution until the service's events say they finished (jobs of minutes to
	 * hours: producers, training, video); absent: the node waits in the execution (quick jobs).
	 */
	defaultWait?: WaitMode;
	/**
	 * Wait Timeout (seconds) of a paused wait unless the user sets one, where the operation's jobs
	 * differ from its node's (src/catalog/wait-timeouts.ts: the shared defaults per node).
	 */
	pausedWaitTimeout?: number;
	/**
	 * for 'run' outputs: how the service prices it (the sandbox's ledger); `per_model_unit` where the
	 * unit is the model's own (GET /models/pricing) and the document does not tie the operation to one
	 */
	pricing?: {
		unit: 'per_image' | 'per_second' | 'per_character' | 'per_run' | 'per_model_unit';
		countField?: string;
	};
}

/** The catalog's key of an endpoint, e.g. "POST /images/generations". */
export function endpointKey(e: Pick<Endpoint, 'method' | 'path'>): string {
	return `${e.method} ${e.path}`;
}

/** Where a field travels in the request. */
export function fieldLocation(
	endpoint: Endpoint,
	field: FieldSpec,
): 'body' | 'query' | 'path' | 'node' {
	if (field.in) return field.in;
	if (endpoint.path.includes(`{${field.name}}`)) return 'path';
	return endpoint.method === 'GET' || endpoint.method === 'DELETE' ? 'query' : 'body';
}
