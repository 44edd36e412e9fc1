import type { IDataObject } from 'n8n-workflow';

import { firstOf, isObject, numeric, objectOr, put, text, urlsOf } from './simplify-values';

/**
 * A product extraction's output as the product's own fields (Simplify). The API document shows no
 * key of this output (docs/outputs.md, "Assumptions"), so each field is read from several plausible
 * places: the product object at `output.product` (else `output.products[0]`, else `output` itself);
 * its name from `name`, `title` or `product_name`; its price as a number, a numeric string, a
 * string such as "€49.90" (kept as it is) or an object `{amount | value, currency | currency_code}`.
 */

const NAME_KEYS = ['name', 'title', 'product_name'];
const DESCRIPTION_KEYS = ['description', 'product_description'];
const URL_KEYS = ['url', 'product_url', 'link'];
const IMAGE_KEYS = ['images', 'image_urls', 'photos'];
const PRICE_KEYS = ['price', 'price_amount'];
const CURRENCY_KEYS = ['currency', 'currency_code', 'price_currency'];
/** Fields read into the named keys above; every other product field is passed on as it is. */
const READ_KEYS = new Set([
	...NAME_KEYS,
	...DESCRIPTION_KEYS,
	...URL_KEYS,
	...IMAGE_KEYS,
	...PRICE_KEYS,
	...CURRENCY_KEYS,
	'brand',
]);
/** Output keys that are the product or its files, not further values of the run. */
const OUTPUT_FILE_KEYS = new Set(['product', 'products', 'images', 'output_url']);

function productOf(output: IDataObject): IDataObject {
	if (isObject(output.product)) return output.product;
	if (Array.isArray(output.products) && isObject(output.products[0])) return output.products[0];
	return output;
}

/** The price as a number where it is one, with its currency when the price names it. */
function priceOf(product: IDataObject): {
	price?: number | string | IDataObject;
	currency?: string;
} {
	const raw = firstOf(product, PRICE_KEYS, (value) =>
		value === undefined || value === null ? undefined : value,
	);
	if (isObject(raw)) {
		const amount = firstOf(raw, ['amount', 'value', 'price'], numeric);
		const currency = firstOf(raw, ['currency', 'currency_code', 'code'], text);
		// an object without an amount is not a price the node can read: it is passed on as it is
		return amount === undefined ? { price: raw, currency } : { price: amount, currency };
	}
	return { price: numeric(raw) ?? text(raw) };
}

function brandOf(value: unknown): string | undefined {
	return isObject(value) ? (text(value.name) ?? text(value.title)) : text(value);
}

/**
 * The product's fields first (name, title, description, brand, price, currency, url, images, then
 * the rest), then the output's other values. `sentUrl` is the page the node sent, used where the
 * product names none. `taken` are keys the caller sets itself: a product field of that name moves
 * to `product_<key>`.
 */
export function productFields(
	outputValue: unknown,
	sentUrl: unknown,
	taken: ReadonlySet<string>,
): IDataObject {
	const output = objectOr(outputValue);
	const product = productOf(output);
	const item: IDataObject = {};
	put(item, 'name', firstOf(product, NAME_KEYS, text));
	put(item, 'title', text(product.title));
	put(item, 'description', firstOf(product, DESCRIPTION_KEYS, text));
	put(item, 'brand', brandOf(product.brand));
	const { price, currency } = priceOf(product);
	put(item, 'price', price);
	put(item, 'currency', currency ?? firstOf(product, CURRENCY_KEYS, text));
	put(item, 'url', firstOf(product, URL_KEYS, text) ?? text(sentUrl));
	const images = firstOf(product, IMAGE_KEYS, (value) =>
		urlsOf(value).length ? urlsOf(value) : undefined,
	);
	put(item, 'images', images ?? urlsOf(output.images));
	const rest =
		product === output ? [] : Object.entries(output).filter(([key]) => !OUTPUT_FILE_KEYS.has(key));
	for (const [key, value] of [
		...Object.entries(product).filter(([key]) => !READ_KEYS.has(key) && !OUTPUT_FILE_KEYS.has(key)),
		...rest,
	]) {
		const name = taken.has(key) || key in item ? `product_${key}` : key;
		if (!(name in item)) put(item, name, value);
	}
	return item;
}
