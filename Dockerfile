# The Chronicle API image: `chronicle serve` on PostgreSQL (configured by CHRONICLE_* variables).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY projections ./projections
COPY api ./api
COPY systems ./systems
RUN pip install --no-cache-dir . && useradd --create-home chronicle && mkdir /data && chown chronicle /data
USER chronicle
ENV CHRONICLE_HOST=0.0.0.0 CHRONICLE_PORT=8000 CHRONICLE_DATA_DIR=/data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health')"
CMD ["chronicle", "serve"]
