package dev.sluice.client.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The store's 403 to an S3A filesystem credentialed by Sluice names the table and the privilege a
 * read or a write needs; everything else passes unchanged. (On a real store: S3AOneTableTest.)
 */
class SluiceAccessDeniedInterceptorTest {
  private static SluiceAccessDeniedInterceptor interceptor(String table) {
    Configuration conf = new Configuration(false);
    if (table != null) {
      conf.set(SluiceS3ACredentialsProvider.TABLE_KEY, table);
    }
    SluiceAccessDeniedInterceptor interceptor = new SluiceAccessDeniedInterceptor();
    interceptor.setConf(conf);
    return interceptor;
  }

  private static AwsServiceException storeError(int status, String code, String message) {
    return AwsServiceException.builder()
        .statusCode(status)
        .requestId("req-1")
        .awsErrorDetails(
            AwsErrorDetails.builder()
                .errorCode(code)
                .errorMessage(message)
                .serviceName("S3")
                .build())
        .build();
  }

  private static Throwable failed(
      SluiceAccessDeniedInterceptor interceptor, Throwable failure, SdkHttpMethod method) {
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(method)
            .uri(URI.create("http://127.0.0.1:7480/bkt/wh/ns/t/data/f.parquet"))
            .build();
    Context.FailedExecution context =
        new Context.FailedExecution() {
          @Override
          public Throwable exception() {
            return failure;
          }

          @Override
          public SdkRequest request() {
            return null;
          }

          @Override
          public Optional<SdkHttpRequest> httpRequest() {
            return Optional.of(request);
          }

          @Override
          public Optional<SdkHttpResponse> httpResponse() {
            return Optional.empty();
          }

          @Override
          public Optional<SdkResponse> response() {
            return Optional.empty();
          }
        };
    return interceptor.modifyException(context, new ExecutionAttributes());
  }

  @Test
  void aRefusedReadNamesTheTableAndTableReadData() {
    Throwable out =
        failed(
            interceptor("ns.t"),
            storeError(403, "AccessDenied", "Access Denied"),
            SdkHttpMethod.GET);
    assertThat(out).isInstanceOf(AwsServiceException.class);
    AwsServiceException e = (AwsServiceException) out;
    assertThat(e.statusCode()).isEqualTo(403);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    assertThat(e.getMessage())
        .startsWith(
            "Access Denied. The store refused a read with the credential Sluice vends for table"
                + " ns.t (fs.s3a.sluice.table): it covers only that table's location, and reading"
                + " needs TABLE_READ_DATA on ns.t")
        .contains("Status Code: 403");
  }

  @Test
  void aRefusedWriteNamesTableWriteData() {
    for (SdkHttpMethod method :
        new SdkHttpMethod[] {SdkHttpMethod.PUT, SdkHttpMethod.POST, SdkHttpMethod.DELETE}) {
      assertThat(failed(interceptor("ns.t"), storeError(403, "AccessDenied", null), method))
          .hasMessageContaining("Access Denied. The store refused a write")
          .hasMessageContaining(
              "writing needs TABLE_WRITE_DATA on ns.t (with TABLE_READ_DATA alone the credential"
                  + " is read-only)");
    }
  }

  @Test
  void aRefusedHeadWithoutABodyGetsS3sCodeAndTheMessageInItsDetails() {
    // A HEAD's 403 has no body: no code, no message. The S3 client rebuilds such an exception
    // after the interceptors unless its details carry a code.
    AwsServiceException bare =
        AwsServiceException.builder()
            .statusCode(403)
            .awsErrorDetails(AwsErrorDetails.builder().serviceName("S3").build())
            .build();
    AwsServiceException out =
        (AwsServiceException) failed(interceptor("ns.t"), bare, SdkHttpMethod.HEAD);
    assertThat(out.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    assertThat(out.awsErrorDetails().errorMessage())
        .startsWith("Access Denied. The store refused a read")
        .endsWith("reading needs TABLE_READ_DATA on ns.t");
  }

  @Test
  void otherFailuresAndOtherFilesystemsPassUnchanged() {
    AwsServiceException notFound = storeError(404, "NoSuchKey", "Not Found");
    assertThat(failed(interceptor("ns.t"), notFound, SdkHttpMethod.GET)).isSameAs(notFound);
    SdkClientException client = SdkClientException.create("no connection");
    assertThat(failed(interceptor("ns.t"), client, SdkHttpMethod.GET)).isSameAs(client);
    AwsServiceException denied = storeError(403, "AccessDenied", "Access Denied");
    assertThat(failed(interceptor(null), denied, SdkHttpMethod.GET)).isSameAs(denied);
  }
}
