// Jest's default runner, but serial: the e2e files share one n8n server and one sandbox, and each
// `n8n execute` is a heavy process; running them one at a time keeps a 2-core CI box responsive.
const TestRunner = require('jest-runner').default;

class SerialRunner extends TestRunner {
	constructor(...args) {
		super(...args);
		this.isSerial = true;
	}
}

module.exports = SerialRunner;
