/** What features/sso asks of verified domains: features/sso-domains' face (docs/security.md "Verified domains"). */
export {
  emailDomainOf,
  findVerifiedDomain,
  hasDomainRequiringSso,
  normalizeDomain,
} from "../sso-domains/index.ts";
