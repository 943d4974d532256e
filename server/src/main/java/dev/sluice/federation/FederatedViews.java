package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.view.BaseView;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewBuilder;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewOperations;

/**
 * A federated catalog's views: the remote's, through Iceberg's REST client, every call's failure
 * translated by {@link RemoteErrors} (including the commits iceberg-core's handlers make later on a
 * loaded view). Sluice vends and signs nothing for a view.
 */
final class FederatedViews {
  private final RemoteConnection remote;

  FederatedViews(RemoteConnection remote) {
    this.remote = requireNonNull(remote, "remote");
  }

  View load(TableIdentifier view) {
    return translated(call(() -> remote.views().loadView(view)));
  }

  boolean exists(TableIdentifier view) {
    return call(() -> remote.views().viewExists(view));
  }

  boolean drop(TableIdentifier view) {
    return call(() -> remote.views().dropView(view));
  }

  void rename(TableIdentifier from, TableIdentifier to) {
    RemoteErrors.run(remote.remote(), () -> remote.views().renameView(from, to));
  }

  View register(TableIdentifier view, String metadataLocation) {
    return translated(call(() -> remote.views().registerView(view, metadataLocation)));
  }

  ViewBuilder build(TableIdentifier view) {
    return new Builder(call(() -> remote.views().buildView(view)));
  }

  private <T> T call(java.util.function.Supplier<T> work) {
    return RemoteErrors.call(remote.remote(), work);
  }

  private View translated(View view) {
    if (!(view instanceof BaseView base)) {
      return view;
    }
    ViewOperations ops = base.operations();
    return new BaseView(
        new ViewOperations() {
          @Override
          public ViewMetadata current() {
            return ops.current();
          }

          @Override
          public ViewMetadata refresh() {
            return call(ops::refresh);
          }

          @Override
          public void commit(ViewMetadata base, ViewMetadata metadata) {
            RemoteErrors.run(remote.remote(), () -> ops.commit(base, metadata));
          }
        },
        view.name());
  }

  /** The remote's builder, its create and replace translated. */
  private final class Builder implements ViewBuilder {
    private final ViewBuilder delegate;

    Builder(ViewBuilder delegate) {
      this.delegate = delegate;
    }

    @Override
    public ViewBuilder withProperties(Map<String, String> properties) {
      delegate.withProperties(properties);
      return this;
    }

    @Override
    public ViewBuilder withProperty(String key, String value) {
      delegate.withProperty(key, value);
      return this;
    }

    @Override
    public ViewBuilder withLocation(String location) {
      delegate.withLocation(location);
      return this;
    }

    @Override
    public ViewBuilder withSchema(Schema schema) {
      delegate.withSchema(schema);
      return this;
    }

    @Override
    public ViewBuilder withQuery(String dialect, String sql) {
      delegate.withQuery(dialect, sql);
      return this;
    }

    @Override
    public ViewBuilder withDefaultCatalog(String catalog) {
      delegate.withDefaultCatalog(catalog);
      return this;
    }

    @Override
    public ViewBuilder withDefaultNamespace(Namespace namespace) {
      delegate.withDefaultNamespace(namespace);
      return this;
    }

    @Override
    public View create() {
      return translated(call(delegate::create));
    }

    @Override
    public View replace() {
      return translated(call(delegate::replace));
    }

    @Override
    public View createOrReplace() {
      return translated(call(delegate::createOrReplace));
    }
  }
}
