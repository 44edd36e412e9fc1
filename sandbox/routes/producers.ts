/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { newId, nowIso } from '../ids';
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { defaultModelFor, type SandboxModel } from '../models';
import { videoFile, type OutputMaker, type ProducedFile } from '../outputs';
import { makeHtml, makePdf } from '../producer-files';
import type { SandboxServices } from '../services';
import { ownedBy, producerStore, type Build, type Json, type Owned } from './library-store';
import { checkProducer, estimateReply, round, stamp, submitProducerRun } from './producer-runs';

const choices = (object: string, prefix: string, names: string[], extra: Json = {}): Json[] =>
	names.map((name) => ({
		id: `${prefix}_${name.toLowerCase().replace(/\W+/g, '_')}`,
		object,
		name,
		...extra,
	}));

/** The fixed choices of the producers (presets, styles, music, captions). */
const CHOICES: Record<string, Json[]> = {
	'/faceless-reels/presets': choices(
		'reel_preset',
		'reel_preset',
		['Scary Stories', 'Fun Facts', 'Motivation', 'History Bites'],
		{ duration_seconds: 60 },
	),
	'/faceless-reels/styles': choices('reel_style', 'reel_style', [
		'Cinematic',
		'Comic',
		'Watercolor',
		'Dark Fantasy',
	]),
	'/faceless-reels/music-presets': choices('music_preset', 'music_preset', [
		'Calm Piano',
		'Epic Drums',
		'Lo-fi',
	]),
	'/faceless-reels/caption-presets': choices('caption_preset', 'caption_preset', [
		'Bold Yellow',
		'Minimal White',
		'Karaoke',
	]),
	'/explainers/styles': choices('explainer_style', 'explainer_style', [
		'Whiteboard',
		'Flat Motion',
		'Kinetic Type',
	]),
	'/music-videos/styles': choices('music_video_style', 'music_video_style', [
		'Neon City',
		'Lyric Video',
		'Dreamscape',
	]),
	'/picture-books/styles': choices('picture_book_style', 'book_style', [
		'Storybook Watercolor',
		'Crayon',
		'Paper Cut',
	]),
};

const REEL_SECONDS = 30;
const PRICES = {
	explainerPerSecond: 0.5,
	musicVideoPerSecond: 0.8,
	pictureBookPerPage: 3,
	coloringBookPerPage: 1,
	gameDeployment: 5,
};

const num = (value: unknown, fallback: number) =>
	value === undefined || value === '' ? fallback : Number(value);

/** A producer's video: an MP4 of the asked duration_seconds, with sound (reels, explainers and music videos are narrated or scored). */
function videoOutput(kind: string): OutputMaker {
	return (runId, params) => {
		const seconds = num(params.duration_seconds, kind === 'reel' ? REEL_SECONDS : 60);
		return {
			files: [
				{
					name: `${runId}.mp4`,
					contentType: 'video/mp4',
					bytes: videoFile(seconds, true),
					slot: 'main',
				},
			],
			extra: { duration_seconds: seconds },
		};
	};
}

function owned<T extends Owned<Json>>(
	ctx: RouteContext,
	map: Map<string, T>,
	id: string,
	what: string,
): T {
	const record = map.get(id);
	if (!record || record.accountId !== principalOf(ctx).accountId)
		throw new ProblemError(404, 'not_found', `No ${what} ${id}`);
	return record;
}

function reelModel(
	ctx: RouteContext,
	services: SandboxServices,
): { model: SandboxModel; credits: number } {
	const model = checkProducer(ctx, services) ?? defaultModelFor('faceless_reel_generation')!;
	return {
		model,
		credits: round(num(bodyOf(ctx).duration_seconds, REEL_SECONDS) * model.pricing.credits),
	};
}

/** Faceless reels, their subscriptions and episodes. */
function reelHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const subscription = (ctx: RouteContext) =>
		owned(
			ctx,
			producerStore(ctx.state).subscriptions,
			String(ctx.req.params.id),
			'reel subscription',
		);
	const episodeCredits = (sub: Json) =>
		round(
			Number(sub.duration_seconds) * defaultModelFor('faceless_reel_generation')!.pricing.credits,
		);

	const produceEpisode = (ctx: RouteContext, sub: Json) => {
		checkProducer(ctx, services);
		if (sub.status !== 'active' && ctx.endpoint.path.endsWith('/run-now')) {
			throw new ProblemError(
				409,
				'subscription_paused',
				`Reel subscription ${String(sub.id)} is paused; resume it first`,
			);
		}
		const topic =
			typeof bodyOf(ctx).topic === 'string' && bodyOf(ctx).topic
				? String(bodyOf(ctx).topic)
				: String(sub.topic);
		const id = newId('episode');
		const episode: Json = {
			id,
			object: 'reel_episode',
			subscription_id: sub.id,
			number: Number(sub.episode_count) + 1,
			topic,
			status: 'processing',
			run_id: null,
			video_url: null,
			created_at: nowIso(),
			completed_at: null,
		};
		const reply = submitProducerRun(ctx, services, {
			credits: episodeCredits(sub),
			quoteKey: `/faceless-reels/subscriptions/${String(sub.id)}/episodes`,
			capability: 'faceless_reel_generation',
			resourceId: id,
			makeOutput: (runId) => {
				const out = videoOutput('reel')(runId, { topic, duration_seconds: sub.duration_seconds });
				return { ...out, extra: { ...out.extra, episode_id: id, subscription_id: sub.id } };
			},
			onFinish: (status, output) => {
				episode.status = status;
				episode.video_url = (output?.output_url as string | undefined) ?? null;
				episode.completed_at = nowIso();
			},
			inputSummary: { topic, subscription_id: sub.id },
		});
		episode.run_id = reply.runId;
		sub.episode_count = Number(sub.episode_count) + 1;
		sub.last_episode_at = nowIso();
		stamp(sub);
		producerStore(ctx.state).episodes.set(id, {
			accountId: principalOf(ctx).accountId,
			data: episode,
		});
		return reply;
	};

	const subscriptionPatch = (ctx: RouteContext, sub: Json) => {
		const body = bodyOf(ctx);
		if (body.status !== undefined && body.status !== 'active' && body.status !== 'paused') {
			throw new ProblemError(400, 'invalid_parameter', 'status must be active or paused', {
				param: 'status',
			});
		}
		if (
			body.frequency !== undefined &&
			!['daily', 'weekly', 'monthly'].includes(String(body.frequency))
		) {
			throw new ProblemError(
				400,
				'invalid_parameter',
				'frequency must be daily, weekly or monthly',
				{ param: 'frequency' },
			);
		}
		for (const key of [
			'name',
			'topic',
			'frequency',
			'status',
			'preset_id',
			'style_id',
			'music_preset_id',
			'caption_preset_id',
		]) {
			if (body[key] !== undefined) sub[key] = body[key];
		}
		if (body.duration_seconds !== undefined) sub.duration_seconds = Number(body.duration_seconds);
		sub.next_episode_at = sub.status === 'active' ? nextEpisodeAt(String(sub.frequency)) : null;
		stamp(sub);
	};

	return {
		'POST /faceless-reels/generations': (ctx) => {
			const { model, credits } = reelModel(ctx, services);
			const id = newId('reel');
			return submitProducerRun(
				ctx,
				services,
				{
					credits,
					quoteKey: model.id,
					capability: 'faceless_reel_generation',
					resourceId: id,
					makeOutput: videoOutput('reel'),
				},
				model,
			);
		},
		'POST /faceless-reels/estimate-cost': (ctx) => {
			const { model, credits } = reelModel(ctx, services);
			return estimateReply(ctx, services, model.id, credits, model);
		},
		'POST /faceless-reels/subscriptions': (ctx) => {
			checkProducer(ctx, services);
			const at = nowIso();
			const sub: Json = {
				id: newId('rsub'),
				object: 'reel_subscription',
				status: 'active',
				duration_seconds: REEL_SECONDS,
				episode_count: 0,
				preset_id: null,
				style_id: null,
				music_preset_id: null,
				caption_preset_id: null,
				last_episode_at: null,
				created_at: at,
			};
			subscriptionPatch(ctx, sub);
			producerStore(ctx.state).subscriptions.set(String(sub.id), {
				accountId: principalOf(ctx).accountId,
				data: sub,
			});
			return { status: 201, body: sub };
		},
		'GET /faceless-reels/subscriptions': (ctx) =>
			listReply(
				ctx.req,
				ownedBy(producerStore(ctx.state).subscriptions, principalOf(ctx).accountId),
			),
		'PATCH /faceless-reels/subscriptions/{id}': (ctx) => {
			const sub = subscription(ctx).data;
			checkProducer(ctx, services);
			subscriptionPatch(ctx, sub);
			return { status: 200, body: sub };
		},
		'DELETE /faceless-reels/subscriptions/{id}': (ctx) => {
			const sub = subscription(ctx).data;
			producerStore(ctx.state).subscriptions.delete(String(sub.id));
			return { status: 204 };
		},
		'POST /faceless-reels/subscriptions/{id}/run-now': (ctx) =>
			produceEpisode(ctx, subscription(ctx).data),
		'POST /faceless-reels/subscriptions/{id}/episodes': (ctx) =>
			produceEpisode(ctx, subscription(ctx).data),
		'POST /faceless-reels/subscriptions/{id}/estimate-episode': (ctx) => {
			const sub = subscription(ctx).data;
			checkProducer(ctx, services);
			return estimateReply(
				ctx,
				services,
				`/faceless-reels/subscriptions/${String(sub.id)}/episodes`,
				episodeCredits(sub),
				defaultModelFor('faceless_reel_generation'),
			);
		},
		'GET /faceless-reels/subscriptions/{id}/episodes': (ctx) => {
			const sub = subscription(ctx).data;
			const episodes = ownedBy(
				producerStore(ctx.state).episodes,
				principalOf(ctx).accountId,
			).filter((e) => e.subscription_id === sub.id);
			return listReply(ctx.req, episodes);
		},
	};
}

function nextEpisodeAt(frequency: string): string {
	const days = frequency === 'weekly' ? 7 : frequency === 'monthly' ? 30 : 1;
	return nowIso(Date.now() + days * 86400_000);
}

/** Explainers, music videos, picture books and coloring books. */
function bookAndVideoHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const videoProducer = (
		path: string,
		kind: string,
		perSecond: number,
	): Record<string, RouteHandler> => {
		const credits = (ctx: RouteContext) => round(num(bodyOf(ctx).duration_seconds, 60) * perSecond);
		return {
			[`POST /${path}/generations`]: (ctx) => {
				checkProducer(ctx, services);
				return submitProducerRun(ctx, services, {
					credits: credits(ctx),
					quoteKey: `/${path}/generations`,
					capability: `${kind}_generation`,
					resourceId: newId(kind),
					makeOutput: videoOutput(kind),
				});
			},
			[`POST /${path}/estimate-cost`]: (ctx) => {
				checkProducer(ctx, services);
				return estimateReply(ctx, services, `/${path}/generations`, credits(ctx));
			},
		};
	};
	const pictureBookCredits = (ctx: RouteContext) =>
		round(num(bodyOf(ctx).page_count, 12) * PRICES.pictureBookPerPage);
	return {
		...videoProducer('explainers', 'explainer', PRICES.explainerPerSecond),
		...videoProducer('music-videos', 'music_video', PRICES.musicVideoPerSecond),
		'POST /picture-books/estimate-cost': (ctx) => {
			checkProducer(ctx, services);
			return estimateReply(ctx, services, '/picture-books/generations', pictureBookCredits(ctx));
		},
		'POST /picture-books/generations': (ctx) => {
			checkProducer(ctx, services);
			const body = bodyOf(ctx);
			const id = newId('pbook');
			const pageCount = num(body.page_count, 12);
			const title =
				typeof body.title === 'string' && body.title
					? body.title
					: String(body.prompt).slice(0, 60);
			const texts = Array.from(
				{ length: pageCount },
				(_, i) => `Page ${i + 1}: ${String(body.prompt).slice(0, 80)}`,
			);
			const book: Json = {
				id,
				object: 'picture_book',
				title,
				status: 'processing',
				page_count: pageCount,
				age_range: body.age_range ?? '3-5',
				style_id: body.style_id ?? null,
				pages: [],
				pdf_url: null,
				run_id: null,
				created_at: nowIso(),
				completed_at: null,
			};
			const reply = submitProducerRun(ctx, services, {
				credits: pictureBookCredits(ctx),
				quoteKey: '/picture-books/generations',
				capability: 'picture_book_generation',
				resourceId: id,
				makeOutput: (runId) => ({
					files: [
						{
							name: `${runId}.pdf`,
							contentType: 'application/pdf',
							bytes: makePdf(title, texts),
							slot: 'main',
						},
					],
					extra: { picture_book_id: id, page_count: pageCount },
				}),
				onFinish: (status, output) => {
					book.status = status;
					book.completed_at = nowIso();
					book.pdf_url = (output?.output_url as string | undefined) ?? null;
					book.pages = status === 'completed' ? texts.map((text, index) => ({ index, text })) : [];
				},
			});
			book.run_id = reply.runId;
			producerStore(ctx.state).pictureBooks.set(id, {
				accountId: principalOf(ctx).accountId,
				data: book,
			});
			return reply;
		},
		'GET /picture-books/{id}': (ctx) => ({
			status: 200,
			body: owned(
				ctx,
				producerStore(ctx.state).pictureBooks,
				String(ctx.req.params.id),
				'picture book',
			).data,
		}),
		'POST /coloring-books/generations': (ctx) => {
			checkProducer(ctx, services);
			const body = bodyOf(ctx);
			const pages = num(body.page_count, 10);
			const title =
				typeof body.title === 'string' && body.title
					? body.title
					: String(body.prompt).slice(0, 60);
			const texts = Array.from({ length: pages }, (_, i) => `Coloring page ${i + 1}`);
			return submitProducerRun(ctx, services, {
				credits: round(pages * PRICES.coloringBookPerPage),
				quoteKey: '/coloring-books/generations',
				capability: 'coloring_book_generation',
				resourceId: newId('cbook'),
				makeOutput: (runId) => ({
					files: [
						{
							name: `${runId}.pdf`,
							contentType: 'application/pdf',
							bytes: makePdf(title, texts),
							slot: 'main',
						},
					],
					extra: { page_count: pages },
				}),
			});
		},
	};
}

type Product = Owned<Json> & { builds: Build[]; versions: number };

/** Games (generate, iterate, deploy, publish) and apps (deploy, iterate). */
function gameAndAppHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const htmlFile = (runId: string, html: Buffer): ProducedFile => ({
		name: `${runId}.html`,
		contentType: 'text/html',
		bytes: html,
		slot: 'main',
	});

	/** Builds a new version of a game or app (a new one, or the next version of `existingId`). */
	const build = (ctx: RouteContext, kind: 'game' | 'app', existingId: unknown) => {
		const model = checkProducer(ctx, services);
		const store = producerStore(ctx.state);
		const map: Map<string, Product> = kind === 'game' ? store.games : store.apps;
		const accountId = principalOf(ctx).accountId;
		const prompt = String(bodyOf(ctx).prompt);
		const param = `${kind}_id`;
		let product: Product;
		if (typeof existingId === 'string' && existingId) {
			const found = map.get(existingId);
			if (!found || found.accountId !== accountId)
				throw new ProblemError(404, 'not_found', `No ${kind} ${existingId}`, { param });
			product = found;
		} else {
			const id = newId(kind);
			const at = nowIso();
			const url = kind === 'game' ? `${ctx.origin}/play/${id}` : `${ctx.origin}/live/${id}`;
			const data: Json =
				kind === 'game'
					? {
							id,
							object: 'game',
							title: prompt.slice(0, 60),
							status: 'building',
							version: 0,
							deployed_version: null,
							published: false,
							play_url: url,
							created_at: at,
							updated_at: at,
						}
					: {
							id,
							object: 'app',
							title: prompt.slice(0, 60),
							status: 'building',
							version: 0,
							live_url: url,
							created_at: at,
							updated_at: at,
						};
			product = { accountId, data, builds: [], versions: 0 };
			map.set(id, product);
		}
		const id = String(product.data.id);
		const pendingVersion = ++product.versions;
		const html = makeHtml(kind, id, pendingVersion, prompt);
		const reply = submitProducerRun(
			ctx,
			services,
			{
				credits: model ? round(model.pricing.credits) : 1,
				quoteKey: model?.id ?? ctx.endpoint.path,
				capability: `${kind}_generation`,
				resourceId: id,
				makeOutput: (runId) => ({
					files: [htmlFile(runId, html)],
					extra:
						kind === 'game'
							? {
									game_id: id,
									version: pendingVersion,
									play_url: `${String(product.data.play_url)}?version=${pendingVersion}`,
								}
							: { app_id: id, version: pendingVersion, live_url: product.data.live_url },
				}),
				onFinish: (status) => {
					if (status === 'completed') {
						product.builds.push({ version: pendingVersion, prompt, html });
						product.data.version = Math.max(Number(product.data.version), pendingVersion);
					}
					product.data.status = product.builds.length ? 'ready' : 'failed';
					stamp(product.data);
				},
			},
			model,
		);
		return reply;
	};

	return {
		'POST /games/generations': (ctx) => build(ctx, 'game', bodyOf(ctx).game_id),
		'POST /apps/deployments': (ctx) => build(ctx, 'app', bodyOf(ctx).app_id),
		'POST /games/deployments': (ctx) => {
			checkProducer(ctx, services);
			const body = bodyOf(ctx);
			const game = owned(
				ctx,
				producerStore(ctx.state).games,
				String(body.game_id),
				'game',
			) as Product;
			const wanted = num(body.version, 0) || game.builds.length;
			const deployed = game.builds.find((b) => b.version === wanted);
			if (!deployed) {
				throw new ProblemError(
					409,
					'game_not_ready',
					`Game ${String(game.data.id)} has no finished version ${wanted}; generate it first`,
					{ param: 'version' },
				);
			}
			return submitProducerRun(ctx, services, {
				credits: PRICES.gameDeployment,
				quoteKey: '/games/deployments',
				capability: 'game_generation',
				resourceId: String(game.data.id),
				makeOutput: (runId) => ({
					files: [htmlFile(runId, deployed.html)],
					extra: {
						game_id: game.data.id,
						version: wanted,
						play_url: game.data.play_url,
						published: true,
					},
				}),
				onFinish: (status) => {
					if (status !== 'completed') return;
					Object.assign(game.data, { deployed_version: wanted, published: true });
					stamp(game.data);
				},
			});
		},
		'POST /games/{gameId}/publish': (ctx) => {
			const game = owned(
				ctx,
				producerStore(ctx.state).games,
				String(ctx.req.params.gameId),
				'game',
			);
			const published = bodyOf(ctx).published;
			if (typeof published !== 'boolean')
				throw new ProblemError(400, 'invalid_parameter', 'published must be true or false', {
					param: 'published',
				});
			if (published && game.data.deployed_version === null) {
				throw new ProblemError(
					409,
					'game_not_deployed',
					`Game ${String(game.data.id)} has not been deployed; deploy it before publishing`,
				);
			}
			game.data.published = published;
			stamp(game.data);
			return { status: 200, body: game.data };
		},
	};
}

/** Handlers of the producer routes: reels, explainers, music videos, books, games and apps. */
export function producerHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const lists: Record<string, RouteHandler> = {};
	for (const [path, entries] of Object.entries(CHOICES))
		lists[`GET ${path}`] = (ctx) => listReply(ctx.req, entries);
	return {
		...lists,
		...reelHandlers(services),
		...bookAndVideoHandlers(services),
		...gameAndAppHandlers(services),
	};
}
