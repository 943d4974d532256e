/**
 * The management API's contract ({@code /api/management/v1}): one immutable record per request and
 * response body, bound by Jackson, shared by the server, the CLI and the tests, and described by
 * the OpenAPI document {@code openapi/management-api.yaml} (served at {@code
 * /api/management/v1/openapi.yaml}). {@code api/ManagementApiContractTest} holds the two together.
 * Depends on nothing else of Sluice.
 */
package dev.sluice.api;
