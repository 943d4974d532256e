package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST /catalogs/{name}/verify}: optionally a location outside the catalog's allowed ones
 * that a vended credential must not reach (the body may also be empty).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VerifyCatalogRequest(String otherLocation) {}
