package dev.sluice.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.sluice.vending.StorageRequest;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Reads the spec's {@code S3SignRequest} (region, method, uri, headers; body, provider and
 * properties optional) with Jackson's streaming parser: it is on the path of every storage request
 * a signing client makes, and a tree costs several times more. Strict: a field given twice, or more
 * JSON after the object, would let a reader upstream (a proxy, an audit log) see another request
 * than the one signed; both are refused. Every field is checked for its type, and a 400 names the
 * bad one; unknown fields are skipped.
 */
final class SignRequestReader {
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private SignRequestReader() {}

  static StorageRequest read(byte[] body) {
    if (body.length == 0) {
      throw new BadRequestException("Invalid request: empty body");
    }
    try (JsonParser parser = JSON.createParser(body)) {
      StorageRequest request = request(parser);
      if (parser.nextToken() != null) {
        throw new BadRequestException("Invalid JSON body: Trailing token after the object");
      }
      return request;
    } catch (JsonProcessingException e) {
      throw new BadRequestException("Invalid JSON body: %s", e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadRequestException("Cannot read request body");
    }
  }

  private static StorageRequest request(JsonParser parser) throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw new BadRequestException("Invalid sign request: expected a JSON object");
    }
    String region = null;
    String method = null;
    String uriText = null;
    String body = null;
    String provider = null;
    Map<String, List<String>> headers = null;
    boolean headersGiven = false;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (field) {
        case "region" -> region = text(parser, field);
        case "method" -> method = text(parser, field);
        case "uri" -> uriText = text(parser, field);
        case "body" -> body = text(parser, field);
        case "provider" -> provider = text(parser, field);
        case "headers" -> {
          headersGiven = true;
          headers = headers(parser);
        }
        case "properties" -> {
          if (value != JsonToken.VALUE_NULL && value != JsonToken.START_OBJECT) {
            throw new BadRequestException("Invalid sign request: properties must be an object");
          }
          parser.skipChildren();
        }
        default -> parser.skipChildren();
      }
    }
    require(region, "region");
    require(method, "method");
    require(uriText, "uri");
    if (provider != null && !provider.equals("s3")) {
      throw new BadRequestException("Invalid sign request: provider %s is not signed", provider);
    }
    if (!headersGiven || headers == null) {
      throw new BadRequestException(
          "Invalid sign request: headers must be an object of string arrays");
    }
    URI uri;
    try {
      uri = new URI(uriText);
    } catch (URISyntaxException e) {
      throw new BadRequestException("Invalid sign request: uri is not a URI (%s)", e.getReason());
    }
    return new StorageRequest(method, uri, region, headers, body);
  }

  private static void require(String value, String field) {
    if (value == null) {
      throw new BadRequestException("Invalid sign request: missing %s", field);
    }
  }

  /** A string, or null for JSON null; anything else is a 400 naming the field. */
  private static String text(JsonParser parser, String field) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token != JsonToken.VALUE_STRING) {
      throw new BadRequestException("Invalid sign request: %s must be a string", field);
    }
    return parser.getText();
  }

  /** An object of string arrays; null for JSON null (refused by the caller). */
  private static Map<String, List<String>> headers(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token != JsonToken.START_OBJECT) {
      throw new BadRequestException(
          "Invalid sign request: headers must be an object of string arrays");
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        throw new BadRequestException(
            "Invalid sign request: header %s must be an array of strings", name);
      }
      List<String> values = new ArrayList<>(1);
      JsonToken element;
      while ((element = parser.nextToken()) != JsonToken.END_ARRAY) {
        if (element != JsonToken.VALUE_STRING) {
          throw new BadRequestException(
              "Invalid sign request: header %s must be an array of strings", name);
        }
        values.add(parser.getText());
      }
      headers.put(name, values);
    }
    return headers;
  }
}
