/**
 * The test SAML IdP (saml-idp.ts) served over HTTP on 127.0.0.1, for a browser: its metadata, a
 * login page that takes an AuthnRequest by the HTTP-Redirect binding, and the auto-posting form that
 * carries the signed response to the service provider's ACS with the RelayState (SAML bindings
 * §3.4 and §3.5).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  buildResponse,
  createTestIdp,
  decodeAuthnRequest,
  encodeSamlResponse,
  readAttribute,
} from "./saml-idp.ts";

export interface SamlIdpServer {
  url: string;
  entityId: string;
  /** The IdP's metadata XML, as an administrator copies it into the service provider. */
  metadata: string;
  /** People who can log in: the NameID (their email) and attributes sent for each. */
  setAccount(username: string, account: { email: string; displayName: string }): void;
  close(): Promise<void>;
}

export async function startSamlIdpServer(): Promise<SamlIdpServer> {
  const accounts = new Map<string, { email: string; displayName: string }>();
  const server = createServer((req, res) => {
    void answer(req).then(
      ({ status, type, body }) => {
        res.writeHead(status, { "content-type": type });
        res.end(body);
      },
      (error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = { ...createTestIdp(`${url}/metadata`), ssoUrl: `${url}/sso` };
  const certificate = idp.certificate.replace(/-----[A-Z ]+-----|\s/g, "");
  const metadata =
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${idp.entityId}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data>` +
    `<ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.ssoUrl}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;

  async function answer(req: IncomingMessage): Promise<{ status: number; type: string; body: string }> {
    const requestUrl = new URL(req.url ?? "/", url);
    if (requestUrl.pathname === "/metadata") return { status: 200, type: "application/xml", body: metadata };
    if (requestUrl.pathname === "/sso" && req.method === "GET") {
      // The AuthnRequest travels on through the login form.
      const request = requestUrl.searchParams.get("SAMLRequest") ?? "";
      const relayState = requestUrl.searchParams.get("RelayState") ?? "";
      decodeAuthnRequest(requestUrl.toString());
      return {
        status: 200,
        type: "text/html; charset=utf-8",
        body:
          `<!doctype html><title>Test IdP</title><h1>Test IdP</h1><form method="post" action="/login">` +
          `<input type="hidden" name="SAMLRequest" value="${escapeAttribute(request)}">` +
          `<input type="hidden" name="RelayState" value="${escapeAttribute(relayState)}">` +
          `<label>Username <input name="username"></label><button>Log in</button></form>`,
      };
    }
    if (requestUrl.pathname === "/login" && req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      const account = accounts.get(form.get("username") ?? "");
      if (!account) return { status: 403, type: "text/plain", body: "unknown user" };
      const authnRequest = decodeAuthnRequest(
        `${url}/?SAMLRequest=${encodeURIComponent(form.get("SAMLRequest") ?? "")}`,
      );
      const acsUrl = readAttribute(authnRequest, "AuthnRequest", "AssertionConsumerServiceURL") ?? "";
      const audience = /<(?:\w+:)?Issuer\b[^>]*>([^<]+)</.exec(authnRequest)?.[1] ?? "";
      const xml = buildResponse(idp, {
        acsUrl,
        audience,
        nameId: account.email,
        inResponseTo: readAttribute(authnRequest, "AuthnRequest", "ID"),
        attributes: { email: account.email, displayName: account.displayName },
      });
      return {
        status: 200,
        type: "text/html; charset=utf-8",
        body:
          `<!doctype html><title>Signing in</title><form method="post" action="${escapeAttribute(acsUrl)}">` +
          `<input type="hidden" name="SAMLResponse" value="${encodeSamlResponse(xml)}">` +
          `<input type="hidden" name="RelayState" value="${escapeAttribute(form.get("RelayState") ?? "")}">` +
          `<noscript><button>Continue</button></noscript></form><script>document.forms[0].submit()</script>`,
      };
    }
    return { status: 404, type: "text/plain", body: "not found" };
  }

  return {
    url,
    entityId: idp.entityId,
    metadata,
    setAccount: (username, account) => accounts.set(username, account),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
