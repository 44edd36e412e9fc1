// A real n8n: `n8n execute` alone takes ~3 s, a browser session ~20 s on a 2-core box.
jest.setTimeout(300_000);
