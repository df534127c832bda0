import { startSmtpSink } from "./e2e/smtp-sink.ts";
const sink = await startSmtpSink();
console.log(sink.url);
setInterval(() => console.log("mails", sink.mails.length), 5000);
