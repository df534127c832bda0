import type { AnyContract } from "./contract.ts";
import * as general from "./general.ts";
import * as session from "./session.ts";

export type { AnyContract, EndpointAnswer, EndpointAuth, EndpointContract, HttpMethod } from "./contract.ts";

/**
 * Every endpoint contract (the exports named `…Contract` of the contract modules): the server pairs
 * each with its handler, the client SDK builds its methods from them, and the API documentation is
 * generated from them.
 */
export const contracts: readonly AnyContract[] = [general, session].flatMap((module) =>
  Object.entries(module)
    .filter(([name]) => name.endsWith("Contract"))
    .map(([, contract]) => contract as AnyContract),
);
