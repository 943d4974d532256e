package dev.sluice.vending.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.file.datalake.models.DataLakeStorageException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.StoreProbes.StoreAnswer;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The Azure part of the self-check, offline: refusals read from the SDK, the shorter profile. */
class AzureProbesTest {
  private final AzureProbes probes = new AzureProbes();

  /** An answer of the store: {@code status}, and {@code x-ms-error-code} when {@code code}. */
  private static HttpResponse response(int status, String code) {
    HttpHeaders headers = new HttpHeaders();
    if (code != null) {
      headers.set(HttpHeaderName.fromString("x-ms-error-code"), code);
    }
    HttpRequest request = new HttpRequest(HttpMethod.GET, "https://acct.blob.core.windows.net/c");
    return new HttpResponse(request) {
      @Override
      public int getStatusCode() {
        return status;
      }

      @Override
      @Deprecated
      public String getHeaderValue(String name) {
        return headers.getValue(HttpHeaderName.fromString(name));
      }

      @Override
      public HttpHeaders getHeaders() {
        return headers;
      }

      @Override
      public Flux<ByteBuffer> getBody() {
        return Flux.empty();
      }

      @Override
      public Mono<byte[]> getBodyAsByteArray() {
        return Mono.empty();
      }

      @Override
      public Mono<String> getBodyAsString() {
        return Mono.empty();
      }

      @Override
      public Mono<String> getBodyAsString(Charset charset) {
        return Mono.empty();
      }
    };
  }

  private static AzureStorageProfile profile(boolean hns) {
    ObjectNode info = new ObjectMapper().createObjectNode();
    info.put("storageType", "AZURE");
    String base = "abfss://lake@acct.dfs.core.windows.net/wh";
    info.putArray("allowedLocations").add(base);
    info.put("credentialSource", "azure");
    info.put("hierarchicalNamespace", hns);
    info.put("allowContainerScope", !hns);
    return (AzureStorageProfile)
        StandardBackends.create().parse("c", info, base, null, 1).profile();
  }

  @Test
  void theStoresStatusAndErrorCodeAreReadFromTheStorageExceptions() {
    DataLakeStorageException lake =
        new DataLakeStorageException(
            "denied", response(403, "AuthorizationPermissionMismatch"), null);
    assertThat(probes.answer(lake))
        .contains(new StoreAnswer(403, "AuthorizationPermissionMismatch"));
    BlobStorageException blob =
        new BlobStorageException("denied", response(403, "AuthenticationFailed"), null);
    assertThat(probes.answer(blob)).contains(new StoreAnswer(403, "AuthenticationFailed"));
    // Another azure-core exception: the code from the header.
    assertThat(probes.answer(new HttpResponseException("x", response(404, "PathNotFound"))))
        .contains(new StoreAnswer(404, "PathNotFound"));
    // Not the store's answer: no response, or a wrapper (the caller walks the chain).
    assertThat(probes.answer(new HttpResponseException("x", null))).isEmpty();
    assertThat(probes.answer(new UncheckedIOException(new java.io.IOException(lake)))).isEmpty();
    assertThat(probes.answer(new IllegalStateException("connection refused"))).isEmpty();
  }

  @Test
  void aBare400IsAnOperationTheEmulatorLacksAndAnyNamedErrorIsNot() {
    StoreAnswer bare =
        probes.answer(new DataLakeStorageException("x", response(400, null), null)).orElseThrow();
    assertThat(bare.status()).isEqualTo(400);
    assertThat(bare.unsupported()).contains("without an Azure error code").contains("Azurite");
    // Azure's own 400s name their error: they prove something, and are not skipped.
    assertThat(
            probes
                .answer(
                    new DataLakeStorageException(
                        "x", response(400, "InvalidQueryParameterValue"), null))
                .orElseThrow()
                .unsupported())
        .isNull();
    // A refusal without a code is still a refusal.
    assertThat(
            probes.answer(new BlobStorageException("x", response(403, null), null)).orElseThrow())
        .isEqualTo(new StoreAnswer(403, null));
  }

  @Test
  void theShortProfileDiffersOnlyInItsLifetime() {
    AzureStorageProfile profile = profile(true);
    AzureStorageProfile shorter = (AzureStorageProfile) probes.withLifetime(profile, 2).get();
    assertThat(shorter.durationSeconds()).isEqualTo(2);
    assertThat(probes.withLifetime(shorter, profile.durationSeconds())).contains(profile);
  }

  @Test
  void onlyAContainerScopedCatalogIsWiderByDesignAndWhereToFixNamesTheScope() {
    assertThat(probes.widerByDesign(profile(true))).isEmpty();
    assertThat(probes.widerByDesign(profile(false)).orElseThrow())
        .contains("allowContainerScope: true");
    assertThat(probes.whereToFix(profile(true)))
        .contains("sr=d")
        .contains("[abfss://lake@acct.dfs.core.windows.net/wh]")
        .contains("hierarchical namespace")
        .contains("anonymous");
    assertThat(probes.whereToFix(profile(false))).contains("sr=c").doesNotContain("sr=d");
  }
}
