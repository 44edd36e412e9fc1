/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** One mail as the sink received it: envelope, raw message, and its text decoded (quoted-printable). */
export interface ReceivedMail {
	from: string;
	to: string[];
	raw: string;
	/** the message with quoted-printable soft breaks and escapes decoded, HTML entities of links undone */
	text: string;
}

export interface SmtpSink {
	host: string;
	port: number;
	mails: ReceivedMail[];
	close(): Promise<void>;
}

/** Quoted-printable (RFC 2045) as nodemailer writes HTML bodies: `=\r\n` soft breaks, `=XX` bytes. */
function decodeQuotedPrintable(raw: string): string {
	const joined = raw.replace(/=\r?\n/g, '');
	const bytes = Buffer.from(
		joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
		'latin1',
	);
	return bytes.toString('utf8').replace(/&amp;/g, '&');
}

/**
 * A minimal SMTP server on 127.0.0.1 that accepts every mail (no TLS, no auth): what n8n's Send
 * Email node needs to deliver a send-and-wait approval mail without an outside service.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
	const mails: ReceivedMail[] = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.setEncoding('utf8');
		let buffer = '';
		let inData = false;
		let mail = { from: '', to: [] as string[], raw: '' };
		const reply = (line: string) => socket.write(`${line}\r\n`);
		reply('220 sink.mediagen.test ESMTP');
		socket.on('data', (chunk: string) => {
			buffer += chunk;
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end < 0) return;
					mail.raw = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
					buffer = buffer.slice(end + 5);
					inData = false;
					mails.push({ ...mail, text: decodeQuotedPrintable(mail.raw) });
					mail = { from: '', to: [], raw: '' };
					reply('250 OK: queued');
					continue;
				}
				const lineEnd = buffer.indexOf('\r\n');
				if (lineEnd < 0) return;
				const line = buffer.slice(0, lineEnd);
				buffer = buffer.slice(lineEnd + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') reply('250 sink.mediagen.test');
				else if (verb === 'HELO') reply('250 sink.mediagen.test');
				else if (verb === 'MAIL') {
					mail.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
					reply('250 OK');
				} else if (verb === 'RCPT') {
					mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
					reply('250 OK');
				} else if (verb === 'DATA') {
					inData = true;
					reply('354 End data with <CR><LF>.<CR><LF>');
				} else if (verb === 'QUIT') {
					reply('221 Bye');
					socket.end();
				} else reply('250 OK');
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		host: '127.0.0.1',
		port,
		mails,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
