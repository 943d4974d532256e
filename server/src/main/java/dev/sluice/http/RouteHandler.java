package dev.sluice.http;

/**
 * Handles one matched request. Throw Iceberg exceptions for errors; {@link ErrorMapper} maps them.
 */
@FunctionalInterface
public interface RouteHandler {
  Reply handle(Exchange exchange) throws Exception;
}
