package dev.sluice.client.hadoop;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Makes the store's bare {@code 403 AccessDenied} to an S3A filesystem credentialed by {@link
 * SluiceS3ACredentialsProvider} say where the credential came from: Sluice, for which table, and
 * the privilege a read ({@code TABLE_READ_DATA}) or a write ({@code TABLE_WRITE_DATA}) needs. The
 * store refuses such a request when the object is outside the table's location, or when the
 * credential is read-only (no TABLE_WRITE_DATA) and the request writes; without this the user sees
 * only {@code AccessDenied} and the path.
 *
 * <p>Configure it next to the provider: {@code
 * fs.s3a.audit.execution.interceptors=dev.sluice.client.hadoop.SluiceAccessDeniedInterceptor} (S3A
 * instantiates it per filesystem and hands it the filesystem's configuration). It changes only the
 * message of a 403 from the store, never its type, status or error code, so S3A still reports an
 * {@code AccessDeniedException}; a filesystem without {@code fs.s3a.sluice.table} is left alone.
 */
public final class SluiceAccessDeniedInterceptor implements ExecutionInterceptor, Configurable {
  private volatile Configuration conf;
  private volatile String table;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    String t = conf == null ? null : conf.getTrimmed(SluiceS3ACredentialsProvider.TABLE_KEY);
    this.table = t == null || t.isEmpty() ? null : t;
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public Throwable modifyException(
      Context.FailedExecution context, ExecutionAttributes executionAttributes) {
    Throwable failure = context.exception();
    String t = table;
    if (t == null || !(failure instanceof AwsServiceException refused)) {
      return failure;
    }
    if (refused.statusCode() != 403) {
      return failure;
    }
    boolean write = context.httpRequest().map(SluiceAccessDeniedInterceptor::writes).orElse(false);
    String message = explain(storeMessage(refused), t, write);
    AwsErrorDetails details = refused.awsErrorDetails();
    // In the details too, with S3's code for a 403 where the store sent none (a HEAD has no
    // body): the S3 client rebuilds a HEAD's exception that lacks them, dropping the message.
    AwsErrorDetails.Builder explained =
        details == null ? AwsErrorDetails.builder() : details.toBuilder();
    explained.errorMessage(message);
    if (details == null || details.errorCode() == null) {
      explained.errorCode("AccessDenied");
    }
    return refused.toBuilder().message(message).awsErrorDetails(explained.build()).build();
  }

  /** The store's own words, as the SDK would show them. */
  private static String storeMessage(AwsServiceException refused) {
    String own =
        refused.awsErrorDetails() == null ? null : refused.awsErrorDetails().errorMessage();
    return own == null || own.isBlank() ? "Access Denied" : own;
  }

  /** The store's message with what Sluice adds: the table, and the privilege that helps. */
  static String explain(String storeMessage, String table, boolean write) {
    return storeMessage
        + ". The store refused a "
        + (write ? "write" : "read")
        + " with the credential Sluice vends for table "
        + table
        + " ("
        + SluiceS3ACredentialsProvider.TABLE_KEY
        + "): it covers only that table's location, and "
        + (write
            ? "writing needs TABLE_WRITE_DATA on "
                + table
                + " (with TABLE_READ_DATA alone the"
                + " credential is read-only)"
            : "reading needs TABLE_READ_DATA on " + table);
  }

  /** Requests that change objects: PUT, POST (multipart, bulk delete), DELETE. */
  private static boolean writes(SdkHttpRequest request) {
    SdkHttpMethod method = request.method();
    return method == SdkHttpMethod.PUT
        || method == SdkHttpMethod.POST
        || method == SdkHttpMethod.DELETE;
  }
}
